import { describe, expect, it } from "vitest";
import { ImportFileError, INVALID_FILE_TYPE, MAX_RECORD_CHARS, readCsvRecords, type CsvRecord } from "./csv-reader.server";

async function read(chunks: (string | Buffer)[]): Promise<CsvRecord[]> {
  const out: CsvRecord[] = [];
  for await (const r of readCsvRecords(chunks.map((c) => (typeof c === "string" ? Buffer.from(c) : c)))) out.push(r);
  return out;
}

describe("reading CSV records from a stream", () => {
  it("respects quoted commas, quotes and line breaks, and numbers rows from the header as 1", async () => {
    const rows = await read(['title,description\n"Sheet, king","He said ""soft""\nand warm"\nPillow,x\n']);
    expect(rows.map((r) => r.row)).toEqual([1, 2, 3]);
    expect(rows[1]!.fields).toEqual(["Sheet, king", 'He said "soft"\nand warm']);
  });

  it("joins records split across chunks, even inside a multi-byte character or a CRLF", async () => {
    const bytes = Buffer.from("title,price\r\nCafé,1\r\nÉtagère,2\r\n");
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    const rows = await read(chunks);
    expect(rows.map((r) => r.fields)).toEqual([["title", "price"], ["Café", "1"], ["Étagère", "2"]]);
  });

  it("drops a UTF-8 byte order mark and handles CRLF line ends", async () => {
    const rows = await read([Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("title\r\nA\r\n")])]);
    expect(rows[0]!.fields).toEqual(["title"]);
    expect(rows[1]!.fields).toEqual(["A"]);
  });

  it("flags a row with invalid UTF-8 and keeps reading", async () => {
    const rows = await read([Buffer.from("title\nGood\n"), Buffer.from([0x42, 0xe9, 0x64, 0x0a]), Buffer.from("Also good\n")]);
    expect(rows[2]!.problem).toMatch(/not valid UTF-8/);
    expect(rows[3]).toMatchObject({ row: 4, fields: ["Also good"] });
  });

  it("reports an unterminated quote on its row, after the rows before it", async () => {
    const rows = await read(['title,price\nA,1\n"B,2\nC,3\n']);
    expect(rows[1]!.fields).toEqual(["A", "1"]);
    expect(rows[2]).toMatchObject({ row: 3, problem: expect.stringMatching(/quoted field is never closed/) });
    expect(rows).toHaveLength(3);
  });

  it("stops at a runaway record instead of holding the rest of the file", async () => {
    const big = "x".repeat(256 * 1024);
    const chunks = ['title\n"', ...Array.from({ length: Math.ceil(MAX_RECORD_CHARS / big.length) + 2 }, () => big)];
    const rows = await read(chunks);
    expect(rows.at(-1)!.problem).toMatch(/longer than 1,000,000 characters/);
  });

  it("guesses semicolons and tabs from the header", async () => {
    expect((await read(["title;price\nA;1,5\n"]))[1]!.fields).toEqual(["A", "1,5"]);
    expect((await read(["title\tprice\nA\t1\n"]))[1]!.fields).toEqual(["A", "1"]);
  });

  it("refuses binary files and empty files as a whole", async () => {
    await expect(read([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])])).rejects.toThrow(INVALID_FILE_TYPE);
    await expect(read([Buffer.from("PK\u0003\u0004xlsx")])).rejects.toThrow(INVALID_FILE_TYPE);
    await expect(read(["<!DOCTYPE html><html></html>"])).rejects.toThrow(INVALID_FILE_TYPE);
    await expect(read([])).rejects.toThrow(ImportFileError);
    await expect(read(["  \n\n"])).rejects.toThrow("The file is empty");
  });
});
