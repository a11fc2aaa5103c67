// The one JSON serializer for every emitted body: compact, key order as the views build it.
export function toJson(body: unknown): string {
  return JSON.stringify(body);
}
