import Papa from "papaparse";
import { DomainError } from "../../platform/index.server";

/**
 * Reads CSV records from a byte stream without holding the file: bytes are decoded as UTF-8 as
 * they arrive, the parser sees only the unfinished tail, and every finished record is handed on
 * (the caller's awaits pace the reading). Row numbers count the header as row 1 (docs/rules/catalogue-data.md).
 */

export const INVALID_FILE_TYPE = "Invalid file type: Please select a CSV file";

/** The whole file is unusable (not a CSV: unsupported_type; empty, header only: bad_input): nothing was imported. */
export class ImportFileError extends DomainError<"bad_input" | "unsupported_type"> {
  override name = "ImportFileError";

  constructor(message: string) {
    super(message, message === INVALID_FILE_TYPE ? "unsupported_type" : "bad_input");
  }
}

export type CsvRecord = {
  row: number;
  fields: string[];
  /** Why this record cannot be used, for "Row N: …". */
  problem?: string;
};

/** A record this long is almost always an unterminated quote swallowing the rest of the file. */
export const MAX_RECORD_CHARS = 1_000_000;

const BINARY_SIGNATURES = [
  "%PDF-",
  "PK\u0003\u0004", // zip: .xlsx, .docx, .numbers
  "\u00d0\u00cf\u0011\u00e0", // OLE: .xls
  "{\\rtf",
  "\u0089PNG",
  "\u00ff\u00d8\u00ff",
  "GIF8",
];

/** True when the first bytes show a binary or a document format rather than CSV text. */
export function looksLikeNonCsv(head: Buffer): boolean {
  const sample = head.subarray(0, 8192);
  if (sample.includes(0)) return true;
  const latin = sample.subarray(0, 16).toString("latin1");
  if (BINARY_SIGNATURES.some((sig) => latin.startsWith(sig))) return true;
  const text = sample.toString("utf8").replace(/^\uFEFF/, "").trimStart().slice(0, 200).toLowerCase();
  return text.startsWith("<!doctype html") || text.startsWith("<html") || text.startsWith("<?xml");
}

function guessNewline(text: string): "\r\n" | "\n" | "\r" {
  const lf = text.indexOf("\n");
  if (lf > 0 && text[lf - 1] === "\r") return "\r\n";
  if (lf === -1 && text.includes("\r")) return "\r";
  return "\n";
}

/** The separator the header row uses most: comma, semicolon (European Excel) or tab. */
function guessDelimiter(firstLine: string): string {
  const count = (c: string) => firstLine.split(c).length - 1;
  const candidates = [",", ";", "\t"].map((d) => [d, count(d)] as const);
  const [best, n] = candidates.reduce((a, b) => (b[1] > a[1] ? b : a));
  return n > 0 ? best : ",";
}

export type CsvReadOptions = {
  /** Called with the bytes read so far (for progress before the row count is known). */
  onBytes?: (bytes: number) => void;
};

export async function* readCsvRecords(
  input: AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer | Uint8Array | string>,
  opts: CsvReadOptions = {},
): AsyncGenerator<CsvRecord> {
  const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false });
  let parser: InstanceType<typeof Papa.Parser> | undefined;
  let buf = "";
  let row = 0;
  let bytes = 0;
  let sniffed = false;
  let sawText = false;

  const configure = () => {
    const firstLine = buf.split(/\r?\n|\r/, 1)[0] ?? "";
    parser = new Papa.Parser({ delimiter: guessDelimiter(firstLine), newline: guessNewline(buf), quoteChar: '"' });
  };

  function* emit(rows: string[][]): Generator<CsvRecord> {
    for (const fields of rows) {
      row++;
      yield check({ row, fields });
    }
  }

  for await (const chunk of input) {
    const bytesChunk = typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (!sniffed && bytesChunk.length > 0) {
      sniffed = true;
      if (looksLikeNonCsv(bytesChunk)) throw new ImportFileError(INVALID_FILE_TYPE);
    }
    bytes += bytesChunk.length;
    opts.onBytes?.(bytes);
    buf += decoder.decode(bytesChunk, { stream: true });
    if (buf.trim()) sawText = true;
    if (!parser) {
      // The header's line ending and separator decide the parser; wait for a whole header line.
      // A trailing "\r" may be half of a "\r\n" still in the next chunk.
      if (!/\n|\r[^\n]/.test(buf) && buf.length < MAX_RECORD_CHARS) continue;
      configure();
    }
    const result = parser!.parse(buf, 0, true);
    buf = buf.slice(result.meta.cursor);
    yield* emit(result.data as string[][]);
    if (buf.length > MAX_RECORD_CHARS) {
      yield {
        row: row + 1,
        fields: [],
        problem: `The row is longer than 1,000,000 characters (probably a quote that is never closed); the rest of the file was not read`,
      };
      return;
    }
  }
  buf += decoder.decode();
  if (!sawText && !buf.trim()) throw new ImportFileError("The file is empty");
  if (!parser) configure();
  if (buf.length === 0) return;
  const result = parser!.parse(buf, 0, false);
  const unterminated = result.errors.find((e: Papa.ParseError) => e.code === "MissingQuotes");
  const rows = result.data as string[][];
  if (unterminated) {
    const last = rows.pop();
    yield* emit(rows);
    row++;
    yield { row, fields: last ?? [], problem: "A quoted field is never closed; this row and the rest of the file were not read" };
    return;
  }
  yield* emit(rows);
}

function check(record: CsvRecord): CsvRecord {
  for (let i = 0; i < record.fields.length; i++) {
    const f = record.fields[i]!;
    if (f.includes("\uFFFD")) {
      return { ...record, problem: "Contains characters that are not valid UTF-8; save the file as “CSV UTF-8” and import it again" };
    }
    if (f.includes("\u0000")) return { ...record, problem: "Contains binary data (NUL characters)" };
  }
  return record;
}

/** A record with nothing in any field (blank lines, trailing separators). */
export function isBlankRecord(fields: string[]): boolean {
  for (const f of fields) if (f.trim() !== "") return false;
  return true;
}
