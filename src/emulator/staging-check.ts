// The stager's check of a stored file, chosen by the file's format: a PDF must end with its
// %%EOF trailer, a spreadsheet must be a zip package or an OLE workbook, text must not be binary.
// Its name is what `staging_processes.info.check` reports, so a CSV is never said to have been
// checked for a PDF trailer. One table, so the name reported and the check run never disagree.
import { hasPdfTrailer } from './uploads.js';

const PDF = Buffer.from('%PDF-');
const ZIP = Buffer.from('PK\x03\x04', 'latin1');
const OLE = Buffer.from('d0cf11e0a1b11ae1', 'hex');
const GZIP = Buffer.from([0x1f, 0x8b]);

const startsWith = (head: Buffer, magic: Buffer): boolean => head.subarray(0, magic.length).equals(magic);

interface Check {
  /** What `staging_processes.info.check` calls it. */
  name: string;
  /** Whether a file of this MIME type goes through it. */
  applies: (fileType: string) => boolean;
  /** Why the stored bytes' ends fail it, or undefined when they pass. */
  problem: (head: Buffer, tail: Buffer) => string | undefined;
}

// In order: the first that applies is the file's check.
const CHECKS: readonly Check[] = [
  {
    name: 'pdf-trailer',
    applies: (type) => type === 'application/pdf',
    problem: (head, tail) => {
      if (!startsWith(head, PDF)) return 'the file is not a PDF (it does not start with %PDF-)';
      return hasPdfTrailer(tail) ? undefined : 'the file does not end with %%EOF; it may be truncated or damaged';
    },
  },
  {
    name: 'gzip-header',
    applies: (type) => type === 'application/gzip',
    problem: (head) => (startsWith(head, GZIP) ? undefined : 'the file is not gzip-compressed'),
  },
  {
    name: 'ole-header',
    applies: (type) => type === 'application/vnd.ms-excel',
    problem: (head) => (startsWith(head, OLE) ? undefined : 'the file is not an Excel 97-2003 workbook'),
  },
  {
    name: 'zip-package',
    applies: (type) => type.startsWith('application/vnd.'),
    problem: (head) => (startsWith(head, ZIP) ? undefined : 'the file is not a spreadsheet (not a zip package)'),
  },
  {
    name: 'text-content',
    applies: (type) => type.startsWith('text/') || type === 'application/xml',
    problem: (head) => (head.includes(0) ? 'the file is binary, not text' : undefined),
  },
];

/** Any other type is only received. */
const RECEIVED: Check = { name: 'file-received', applies: () => true, problem: () => undefined };

const checkOf = (fileType: string): Check => CHECKS.find((check) => check.applies(fileType)) ?? RECEIVED;

/** The name of the check a file of this MIME type goes through. */
export const stagingCheck = (fileType: string): string => checkOf(fileType).name;

/** The check of `stagingCheck` on the stored bytes' ends; the reason it fails, if it does. */
export const stagingProblem = (fileType: string, head: Buffer, tail: Buffer): string | undefined =>
  checkOf(fileType).problem(head, tail);
