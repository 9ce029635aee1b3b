// The files the emulator makes for documents that were never uploaded to it (seeded contracts and
// statements): a name and a small valid PDF. Apart from the storage host, so the seed can size a
// statement by the file its download serves.

/** The file name of a contract with no uploaded file: its name, as a PDF. */
export const generatedFileName = (name: string): string =>
  `${name.replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_+|_+$/g, '')}.pdf`;

/** A small valid PDF (one page showing the document's title), with a correct cross-reference table. */
export function generatedPdf(title: string): Buffer {
  // PDF strings in the standard fonts are Latin-1 at best; anything else becomes '?'.
  const text = title
    .replace(/[^\x20-\x7e]/g, '?')
    .replace(/[\\()]/g, (c) => `\\${c}`)
    .slice(0, 90);
  const content = `BT /F1 14 Tf 56 780 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
