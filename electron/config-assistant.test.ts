// The shell's passenger assistant: a local model file, or an OpenAI-compatible endpoint (switch or
// environment), handed to the kiosk runtime as the same spec `kiosk serve` builds.
import { describe, expect, it } from "vitest";
import { testPack } from "../runtime/kiosk/testing.ts";
import { kioskRuntimeConfig, shellConfig } from "./config.ts";

const dirs = { appRoot: "/src", userData: "/u" };

describe("the shell's passenger assistant", () => {
  it("takes an endpoint from --model-endpoint / --endpoint-model, or from KIOSK_MODEL_ENDPOINT / KIOSK_ENDPOINT_MODEL", () => {
    const fromFlags = shellConfig(["--model-endpoint", "http://127.0.0.1:8080/v1", "--endpoint-model", "metro-4b", "--assistant", "model"], {}, dirs);
    expect(kioskRuntimeConfig(fromFlags, testPack()).assistant).toEqual({ mode: "model", endpoint: { baseUrl: "http://127.0.0.1:8080/v1", model: "metro-4b" } });
    const fromEnv = shellConfig([], { KIOSK_MODEL_ENDPOINT: "http://depot:8000/v1" }, dirs);
    expect(kioskRuntimeConfig(fromEnv, testPack()).assistant).toEqual({ mode: "hybrid", endpoint: { baseUrl: "http://depot:8000/v1", model: "default" } });
  });

  it("prefers a local model when both are given, saying it ignores the endpoint, and has none without either", () => {
    const logged: string[] = [];
    const both = shellConfig(["--model", "4b"], { KIOSK_MODEL_ENDPOINT: "http://127.0.0.1:8080/v1" }, dirs);
    expect(kioskRuntimeConfig(both, testPack(), (m) => logged.push(m)).assistant).toMatchObject({ mode: "hybrid", model: "4b" });
    expect(logged).toEqual(["a local model (4b) and a model endpoint (http://127.0.0.1:8080/v1) are both configured: using the local model, ignoring the endpoint"]);
    logged.length = 0;
    expect(kioskRuntimeConfig(shellConfig([], {}, dirs), testPack(), (m) => logged.push(m)).assistant).toBeNull();
    expect(kioskRuntimeConfig(shellConfig(["--model", "4b"], {}, dirs), testPack(), (m) => logged.push(m)).assistant).toMatchObject({ model: "4b" });
    expect(logged).toEqual([]);
  });
});
