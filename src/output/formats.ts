// The formats the schemas name, one definition for both the validator generator and the generated
// validators (which import it): ajv-formats' full checks for dates and UUIDs, and OpenAPI's
// integer formats, whose bounds the schemas carry themselves.
import formats from "ajv-formats/dist/formats.js";

const { fullFormats } = formats;

export const FORMATS = {
  date: fullFormats.date,
  "date-time": fullFormats["date-time"],
  uuid: fullFormats.uuid,
  int64: { type: "number", validate: Number.isSafeInteger },
  int32: { type: "number", validate: Number.isInteger },
} as const;
