// GGUF inspection and integrity checks (node-llama-cpp's readGgufFileInfo + GgufInsights), and a
// memory-fit estimate for this machine.
import { existsSync, openSync, readSync, closeSync, statSync } from "node:fs";
import { freemem, totalmem } from "node:os";
import type { GgufFileInfo, GgufInsights, Llama } from "node-llama-cpp";
import { ModelFileCorruptError, ModelNotFoundError } from "./errors.ts";
import { llamaCpp } from "./llama-cpp.ts";

export interface GgufInspection {
  path: string;
  fileSize: number;
  ggufVersion: number;
  architecture: string | undefined;
  name: string | undefined;
  parameters: number;
  /** llama.cpp file type, e.g. "MOSTLY_Q4_K_M". */
  fileType: string | undefined;
  /** Short quantisation name, e.g. "Q4_K_M". */
  quantization: string | undefined;
  /** Context length the model was trained with. */
  contextLength: number | undefined;
  /** Repeating blocks, `<arch>.block_count` (node-llama-cpp's totalLayers adds 1 for the output layer it offloads). */
  layers: number;
  embeddingLength: number | undefined;
  vocabularySize: number | undefined;
  hasChatTemplate: boolean;
  /** Recurrent or hybrid (e.g. Qwen3.5): KV prefix reuse needs checkpoints. */
  recurrent: boolean;
  tensorBytes: number;
}

function readMagic(path: string): { magic: string; version: number } {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(8);
    const n = readSync(fd, buf, 0, 8, 0);
    return { magic: buf.subarray(0, Math.min(n, 4)).toString("latin1"), version: n >= 8 ? buf.readUInt32LE(4) : 0 };
  } finally {
    closeSync(fd);
  }
}

/** Read and validate a GGUF: header, metadata, tensor table, and that no tensor data is missing. */
export async function inspectGgufFile(path: string): Promise<{ inspection: GgufInspection; fileInfo: GgufFileInfo; insights: GgufInsights }> {
  if (!existsSync(path) || !statSync(path).isFile()) throw new ModelNotFoundError(path);
  const fileSize = statSync(path).size;
  const { magic, version } = readMagic(path);
  if (magic !== "GGUF") throw new ModelFileCorruptError(path, `no GGUF magic (starts with ${JSON.stringify(magic)})`);
  if (version < 2 || version > 3) throw new ModelFileCorruptError(path, `unsupported GGUF version ${version}`);
  const { GgufFileType, GgufInsights: Insights, readGgufFileInfo } = await llamaCpp();
  let fileInfo: GgufFileInfo;
  try {
    fileInfo = await readGgufFileInfo(path, { readTensorInfo: true, logWarnings: false });
  } catch (err) {
    throw new ModelFileCorruptError(path, err instanceof Error ? err.message : String(err));
  }
  const tensors = fileInfo.tensorInfo ?? [];
  if (tensors.length === 0) throw new ModelFileCorruptError(path, "no tensors");
  const insights = await Insights.from(fileInfo);
  const firstData = Math.min(...tensors.map((t) => Number(t.fileOffset)));
  if (firstData + insights.modelSize > fileSize) {
    throw new ModelFileCorruptError(path, `truncated: ${fileSize} bytes, tensor data needs at least ${firstData + insights.modelSize}`);
  }
  const general = fileInfo.metadata.general as { architecture?: string; name?: string; file_type?: number } | undefined;
  const fileType = general?.file_type !== undefined ? GgufFileType[general.file_type] : undefined;
  const arch = fileInfo.architectureMetadata as { block_count?: number; embedding_length?: number; vocab_size?: number } | undefined;
  const tokens = (fileInfo.metadata.tokenizer as unknown as { ggml?: { tokens?: readonly unknown[] }; chat_template?: unknown } | undefined) ?? {};
  return {
    fileInfo,
    insights,
    inspection: {
      path,
      fileSize,
      ggufVersion: version,
      architecture: general?.architecture,
      name: general?.name,
      parameters: insights.totalParameters,
      fileType,
      quantization: fileType?.replace(/^(MOSTLY|ALL)_/, ""),
      contextLength: insights.trainContextSize,
      layers: arch?.block_count ?? insights.totalLayers - 1,
      embeddingLength: insights.embeddingVectorSize ?? arch?.embedding_length,
      vocabularySize: Array.isArray(tokens.ggml?.tokens) ? tokens.ggml.tokens.length : arch?.vocab_size,
      hasChatTemplate: typeof tokens.chat_template === "string" && tokens.chat_template.length > 0,
      recurrent: insights.isRecurrent || insights.isHybrid,
      tensorBytes: insights.modelSize,
    },
  };
}

export interface FitEstimate {
  contextSize: number;
  /** Bytes of RAM the model + context need on CPU only. */
  cpuRamBytes: number;
  totalRamBytes: number;
  freeRamBytes: number;
  fitsInRam: boolean;
  /** When a GPU is usable: VRAM needed with every layer offloaded, and what the GPU has. */
  gpu?: { type: string; vramBytes: number; totalVramBytes: number; freeVramBytes: number; fitsInVram: boolean };
  method: "node-llama-cpp" | "formula";
}

/**
 * How much memory the model needs at `contextSize` and whether this machine has it. Uses
 * node-llama-cpp's estimates when a runtime is given, else weights + KV cache + 1.5 GB overhead (the
 * reference's mac_bench rule of thumb).
 */
export async function estimateFit(info: { inspection: GgufInspection; insights: GgufInsights }, contextSize: number, llama?: Llama): Promise<FitEstimate> {
  const total = totalmem();
  const free = freemem();
  if (llama) {
    const insights = await (await llamaCpp()).GgufInsights.from(info.insights.ggufFileInfo, llama);
    const model = insights.estimateModelResourceRequirements({ gpuLayers: 0 });
    const context = insights.estimateContextResourceRequirements({ contextSize, modelGpuLayers: 0, sequences: 1 });
    const cpuRam = model.cpuRam + context.cpuRam;
    const out: FitEstimate = { contextSize, cpuRamBytes: cpuRam, totalRamBytes: total, freeRamBytes: free, fitsInRam: cpuRam < free, method: "node-llama-cpp" };
    if (llama.gpu !== false) {
      const layers = insights.totalLayers;
      const gm = insights.estimateModelResourceRequirements({ gpuLayers: layers });
      const gc = insights.estimateContextResourceRequirements({ contextSize, modelGpuLayers: layers, sequences: 1 });
      const vram = await llama.getVramState();
      const need = gm.gpuVram + gc.gpuVram;
      out.gpu = { type: String(llama.gpu), vramBytes: need, totalVramBytes: vram.total, freeVramBytes: vram.free, fitsInVram: need < vram.free };
    }
    return out;
  }
  const layers = info.inspection.layers;
  const arch = info.insights.ggufFileInfo.architectureMetadata as { attention?: { head_count?: number; head_count_kv?: number } };
  const heads = arch.attention?.head_count ?? 1;
  const kvHeads = arch.attention?.head_count_kv ?? heads;
  const embd = info.inspection.embeddingLength ?? 0;
  const kvBytes = layers * contextSize * 2 * (embd / heads) * kvHeads * 2;
  const cpuRam = info.inspection.fileSize + kvBytes + 1.5 * 1024 ** 3;
  return { contextSize, cpuRamBytes: cpuRam, totalRamBytes: total, freeRamBytes: free, fitsInRam: cpuRam < free, method: "formula" };
}
