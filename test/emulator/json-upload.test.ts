// The streaming reader of JSON upload bodies: the same members JSON.parse sees, fed in pieces of
// any size, with the file's base64 decoded as it arrives; and the errors of a body that is not one.
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/emulator/http.js';
import { JsonUploadScanner } from '../../src/emulator/json-upload.js';

function scan(body: string, pieceSize: number): { fields: Record<string, unknown>; file: Buffer; fileSeen: boolean } {
  const fields: Record<string, unknown> = {};
  const chunks: Buffer[] = [];
  const scanner = new JsonUploadScanner({
    field: (name, value) => (fields[name] = value),
    fileBytes: (bytes) => chunks.push(bytes),
  });
  const bytes = Buffer.from(body);
  for (let i = 0; i < bytes.length; i += pieceSize) scanner.push(bytes.subarray(i, i + pieceSize));
  scanner.end();
  return { fields, file: Buffer.concat(chunks), fileSeen: scanner.fileSeen };
}

const errorOf = (body: string): unknown => {
  try {
    scan(body, 3);
  } catch (error) {
    return error instanceof HttpError ? error.body().error : error;
  }
  return undefined;
};

describe('JsonUploadScanner', () => {
  const file = Buffer.from('%PDF-1.4\n\u00e9 binary \x00\xff bytes\n%%EOF\n', 'latin1');
  const body = JSON.stringify({
    'odd "key"': 'a \\"quoted\\" } value, with , and }',
    nested: { deep: [1, { x: '}' }], y: null },
    file: file.toString('base64'),
    fileName: 'dir/ü.pdf',
    extractions: ['extract-dates'],
    n: -1.5e3,
    flag: true,
  });

  it.each([1, 2, 3, 4, 5, 7, 64, 100_000])('reads every member, in pieces of %i bytes', (size) => {
    const { fields, file: decoded, fileSeen } = scan(` \n${body}\n `, size);
    const { file: _file, ...expected } = JSON.parse(body) as Record<string, unknown>;
    expect(fields).toEqual(expected);
    expect(decoded.equals(file)).toBe(true);
    expect(fileSeen).toBe(true);
  });

  it('takes wrapped, URL-safe and escaped base64', () => {
    const base64 = file.toString('base64');
    const wrapped = base64.replace(/.{8}/g, '$&\\r\\n').replaceAll('/', '\\/');
    expect(scan(`{"file": "${wrapped}"}`, 5).file.equals(file)).toBe(true);
    expect(scan(`{"file": "${file.toString('base64url')}"}`, 5).file.equals(file)).toBe(true);
    expect(scan('{}', 1)).toEqual({ fields: {}, file: Buffer.alloc(0), fileSeen: false });
  });

  it('refuses what is not one JSON object of that shape', () => {
    expect(errorOf('[1, 2]')).toEqual({ message: 'the request body must be a JSON object' });
    expect(errorOf('{"file": "JVBERi0"')).toEqual({ message: 'the request body is not valid JSON' });
    expect(errorOf('{"a": 1,}')).toEqual({ message: 'the request body is not valid JSON' });
    expect(errorOf('{"a": tru}')).toEqual({ message: 'the request body is not valid JSON' });
    expect(errorOf('{"a" 1}')).toEqual({ message: 'the request body is not valid JSON' });
    expect(errorOf('{"a": 1} x')).toEqual({ message: 'the request body is not valid JSON' });
    expect(errorOf('{"file": "JVB*ERi0"}')).toEqual({ file: ['file must be base64-encoded'] });
    expect(errorOf('{"file": "JV==ERi0"}')).toEqual({ file: ['file must be base64-encoded'] });
    expect(errorOf('{"file": "JVBER"}')).toEqual({ file: ['file must be base64-encoded'] });
    expect(errorOf('{"file": "\\u0041AAA"}')).toEqual({ file: ['file must be base64-encoded'] });
    expect(errorOf('{"file": "QUFB", "file": "QUFB"}')).toEqual({ file: ['send one file'] });
    expect(errorOf(`{"fileName": "${'x'.repeat(70_000)}"}`)).toEqual({
      message: "the member 'fileName' of the request body is too long",
    });
  });
});
