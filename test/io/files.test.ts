import * as fs from 'node:fs';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from '../../io/files.js';

// writes that take fewer bytes than asked, as on a disk filling up (the real ones still happen)
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return { ...real, writeSync: vi.fn(real.writeSync) };
});

describe('writeFileAtomic', () => {
  it('a short write is followed by the rest: the file holds every byte, and no temporary file stays', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilemate-files-'));
    const real = vi.mocked(fs.writeSync).getMockImplementation() as unknown as (fd: number, buf: Uint8Array, off: number, len: number) => number;
    // at most 1,000 bytes a write
    vi.mocked(fs.writeSync).mockImplementation(((fd: number, buf: Uint8Array, off?: number, len?: number) =>
      real(fd, buf, off ?? 0, Math.min(len ?? buf.length - (off ?? 0), 1000))) as unknown as typeof fs.writeSync);
    const text = 'x'.repeat(12_345) + '\n';
    writeFileAtomic(join(dir, 'record.jsonl'), text);
    expect(readFileSync(join(dir, 'record.jsonl'), 'utf8')).toBe(text);
    expect(vi.mocked(fs.writeSync).mock.calls.length).toBe(13);
    expect(readdirSync(dir)).toEqual(['record.jsonl']);
  });

  it('a write that fails (the disk full) is TM_FILE, and leaves no file and no temporary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tilemate-files-'));
    vi.mocked(fs.writeSync).mockImplementation(() => {
      throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
    });
    expect(() => writeFileAtomic(join(dir, 'card.card'), 'card: x\n')).toThrow(expect.objectContaining({ code: 'TM_FILE' }));
    expect(readdirSync(dir)).toEqual([]);
  });
});
