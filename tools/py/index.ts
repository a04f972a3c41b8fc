export * from "./number.ts";
export * from "./json.ts";
export * from "./text.ts";
export * from "./pyhash.ts";
