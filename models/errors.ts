// Typed errors of the model layer, with messages an operator can act on.

export class ModelError extends Error {
  override name = "ModelError";
}

/** No file at the given path (or in the models directory). */
export class ModelNotFoundError extends ModelError {
  override name = "ModelNotFoundError";
  constructor(readonly path: string, hint?: string) {
    super(`Model file not found: ${path}${hint ? `. ${hint}` : ""}`);
  }
}

/** The file exists but is not a readable GGUF (truncated download, wrong file, damaged copy). */
export class ModelFileCorruptError extends ModelError {
  override name = "ModelFileCorruptError";
  constructor(readonly path: string, readonly reason: string) {
    super(`Model file is not a valid GGUF: ${path} (${reason}). Delete it and pull the model again.`);
  }
}

/** The download host cannot be reached (no network, DNS failure, firewall). */
export class ModelOfflineError extends ModelError {
  override name = "ModelOfflineError";
  constructor(readonly host: string, readonly reason: string) {
    super(
      `Cannot reach ${host} to download the model (${reason}). This machine looks offline: copy the .gguf file into the models directory (or pass its path) instead.`,
    );
  }
}

/** The download started but failed (HTTP error, interrupted transfer, integrity check). */
export class ModelDownloadError extends ModelError {
  override name = "ModelDownloadError";
}

/** A model spec that names nothing we can download. */
export class ModelSpecError extends ModelError {
  override name = "ModelSpecError";
}

/** The engine is not loaded (or failed to load). */
export class ModelNotLoadedError extends ModelError {
  override name = "ModelNotLoadedError";
}

/** A prompt longer than the context (the conversation outgrew it); the caller falls back. */
export class ModelContextOverflowError extends ModelError {
  override name = "ModelContextOverflowError";
  constructor(
    readonly promptTokens: number,
    readonly contextSize: number,
  ) {
    super(
      `The conversation (${promptTokens} tokens) no longer fits the model's context of ${contextSize} tokens: this session cannot continue on the model (the kiosk falls back to its rule policy; a larger --context raises the limit at the cost of memory)`,
    );
  }
}
