// The stager's check of a stored file, chosen by the file's format: a PDF must end with its
// %%EOF trailer, a spreadsheet must be a zip package or an OLE workbook, text must not be binary.
// Its name is what `staging_processes.info.check` reports, so a CSV is never said to have been
// checked for a PDF trailer.
import { hasPdfTrailer } from './uploads.js';

/** The name of the check a file of this MIME type goes through. */
export function stagingCheck(fileType: string): string {
  if (fileType === 'application/pdf') return 'pdf-trailer';
  if (fileType === 'application/gzip') return 'gzip-header';
  if (fileType === 'application/vnd.ms-excel') return 'ole-header';
  if (fileType.startsWith('application/vnd.')) return 'zip-package';
  if (fileType.startsWith('text/') || fileType === 'application/xml') return 'text-content';
  return 'file-received';
}

const ZIP = Buffer.from('PK\x03\x04', 'latin1');
const OLE = Buffer.from('d0cf11e0a1b11ae1', 'hex');
const GZIP = Buffer.from([0x1f, 0x8b]);

/** The check of `stagingCheck` on the stored bytes' ends; the reason it fails, if it does. */
export function stagingProblem(fileType: string, head: Buffer, tail: Buffer): string | undefined {
  if (fileType === 'application/pdf') {
    if (!head.subarray(0, 5).equals(Buffer.from('%PDF-'))) return 'the file is not a PDF (it does not start with %PDF-)';
    return hasPdfTrailer(tail) ? undefined : 'the file does not end with %%EOF; it may be truncated or damaged';
  }
  if (fileType === 'application/gzip') return head.subarray(0, 2).equals(GZIP) ? undefined : 'the file is not gzip-compressed';
  if (fileType === 'application/vnd.ms-excel') return head.subarray(0, 8).equals(OLE) ? undefined : 'the file is not an Excel 97-2003 workbook';
  if (fileType.startsWith('application/vnd.')) return head.subarray(0, 4).equals(ZIP) ? undefined : 'the file is not a spreadsheet (not a zip package)';
  if (fileType.startsWith('text/') || fileType === 'application/xml') return head.includes(0) ? 'the file is binary, not text' : undefined;
  return undefined;
}
