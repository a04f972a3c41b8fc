// What the parser and the grammar need to know about a tool definition: its parameters, which are
// required (in schema `properties` order, as llama.cpp iterates them) and which are free text.
import type { ToolDefinition } from "../../tools/data/schemas.ts";

export type JsonSchema = Record<string, unknown>;

export interface ToolParam {
  name: string;
  schema: JsonSchema;
  required: boolean;
  /** Schema type "string" (enums included): the value is raw text, never JSON. */
  isString: boolean;
}

export interface ToolShape {
  name: string;
  params: ToolParam[];
  required: ToolParam[];
  optional: ToolParam[];
  byName: Map<string, ToolParam>;
}

/** llama.cpp's may_be_string(): type "string", a type list containing it, or string-only enums. */
export function schemaMayBeString(schema: JsonSchema): boolean {
  const type = schema.type;
  if (type === "string") return true;
  if (Array.isArray(type)) return type.includes("string");
  if (type === undefined && Array.isArray(schema.enum)) return schema.enum.some((v) => typeof v === "string");
  if (type === undefined && typeof schema.const === "string") return true;
  return false;
}

export function toolShape(tool: ToolDefinition): ToolShape {
  const parameters = (tool.function.parameters ?? {}) as JsonSchema;
  const properties = (parameters.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(parameters.required) ? (parameters.required as string[]) : []);
  const params: ToolParam[] = Object.entries(properties).map(([name, schema]) => ({
    name,
    schema,
    required: required.has(name),
    isString: schemaMayBeString(schema),
  }));
  return {
    name: tool.function.name,
    params,
    required: params.filter((p) => p.required),
    optional: params.filter((p) => !p.required),
    byName: new Map(params.map((p) => [p.name, p])),
  };
}

export function toolShapes(tools: readonly ToolDefinition[]): ToolShape[] {
  return tools.map(toolShape);
}
