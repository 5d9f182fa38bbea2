import { Zip, ZipDeflate } from 'fflate';

/** Bytes held before they are handed on: the ZIP's pieces as stored (export_chunks). */
export const ZIP_PIECE_BYTES = 1024 * 1024;

/**
 * A ZIP written file by file into pieces of about ZIP_PIECE_BYTES (fflate's streaming Zip): the
 * caller takes each full piece (`takePieces`) and stores it, so memory holds one piece and one
 * file at a time however many files the ZIP has.
 */
export class ZipWriter {
  private readonly zip: Zip;
  private buffered: Uint8Array[] = [];
  private bufferedBytes = 0;
  private failure: Error | null = null;
  bytes = 0;

  constructor() {
    this.zip = new Zip((error, data) => {
      if (error) this.failure = error;
      else {
        this.buffered.push(data);
        this.bufferedBytes += data.length;
        this.bytes += data.length;
      }
    });
  }

  add(name: string, bytes: Uint8Array): void {
    const file = new ZipDeflate(name, { level: 6 });
    this.zip.add(file);
    file.push(bytes, true);
    this.check();
  }

  end(): void {
    this.zip.end();
    this.check();
  }

  /** The full pieces written so far (all that is left with `all`, after end). */
  takePieces(all = false): Uint8Array[] {
    if (this.bufferedBytes < ZIP_PIECE_BYTES && !(all && this.bufferedBytes > 0)) return [];
    const joined = new Uint8Array(this.bufferedBytes);
    let offset = 0;
    for (const part of this.buffered) {
      joined.set(part, offset);
      offset += part.length;
    }
    this.buffered = [];
    this.bufferedBytes = 0;
    return [joined];
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }
}

/** A file name inside the ZIP: the code's name made safe (letters, digits, `.`, `_`, `-`), then its id's start so names never collide. */
export function zipEntryName(name: string, id: string, extension: string): string {
  const safe = name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 60);
  return `${safe || 'qr-code'}-${id.replace(/-/g, '').slice(0, 12)}.${extension}`;
}
