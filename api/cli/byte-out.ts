import type { LineResult } from '../../engine/mah-jongg/analyzer.js';
import { reason } from '../../engine/mah-jongg/analyzer.js';
import type { CompiledCard } from '../../engine/mah-jongg/compile.js';
import { KINDS, tileName } from '../../engine/mah-jongg/tiles.js';

const SIZE = 1 << 20;

/**
 * Text for standard output gathered as bytes in one buffer, handed over when full: the
 * batch analysis prints a million results, and a string per result (then one joined string
 * per batch) costs more in garbage than the analysis itself.
 */
export class ByteOut {
  private buf = Buffer.allocUnsafe(SIZE);
  private pos = 0;

  constructor(private readonly write: (chunk: Buffer) => void) {}

  /** A string as UTF-8: byte by byte while it is ASCII, as nearly everything here is. */
  text(s: string): void {
    this.room(s.length * 3);
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 128) {
        pos += buf.write(s.slice(i), pos, 'utf8');
        break;
      }
      buf[pos++] = c;
    }
    this.pos = pos;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < b.length; i++) buf[pos++] = b[i]; // short pieces: a loop beats set()'s call
    this.pos = pos;
  }

  /** A whole number at least 0, in decimal. */
  int(n: number): void {
    if (n < 10) {
      this.room(1);
      this.buf[this.pos++] = 48 + n;
      return;
    }
    this.text(String(n));
  }

  flush(): void {
    if (this.pos === 0) return;
    this.write(this.buf.subarray(0, this.pos)); // handed over whole: the next bytes go to a new buffer
    this.buf = Buffer.allocUnsafe(SIZE);
    this.pos = 0;
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    this.flush();
    if (n > this.buf.length) this.buf = Buffer.allocUnsafe(n);
  }
}

/**
 * Writes a result as `JSON.stringify(resultJson(r))` would (same keys, same order, same
 * text), without building the objects: the line's fixed fields and the tile names are
 * encoded once per card.
 */
export function resultJsonWriter(cc: CompiledCard): (out: ByteOut, r: LineResult) => void {
  const enc = (s: string) => Buffer.from(s, 'utf8');
  const head = cc.card.lines.map((l) => enc(`{"id":${JSON.stringify(l.id)},"section":${JSON.stringify(l.section)},"value":${l.value},"concealed":${l.concealed},"tilesAway":`));
  const names = Array.from({ length: KINDS }, (_, t) => enc(JSON.stringify(tileName(t))));
  const needOpen = enc(',"need":['),
    comma = enc(','),
    possible = enc('],"possible":true,"form":'),
    impossible = enc('],"possible":false,"form":');
  const jokerSlots = enc(',"jokerSlots":'),
    outs = enc(',"outs":'),
    reasonKey = enc(',"reason":'),
    close = enc('}');
  // each form's text and each reason, encoded once (both are few beside the results printed)
  const forms = new Map<string, Uint8Array>(),
    reasons = new Map<number, Uint8Array>();
  return (out, r) => {
    out.bytes(head[r.line]);
    out.int(r.tilesAway);
    out.bytes(needOpen);
    for (let i = 0; i < r.need.length; i++) {
      if (i > 0) out.bytes(comma);
      out.bytes(names[r.need[i]]);
    }
    out.bytes(r.possible ? possible : impossible);
    let form = forms.get(r.form);
    if (form === undefined) forms.set(r.form, (form = enc(JSON.stringify(r.form))));
    out.bytes(form);
    out.bytes(jokerSlots);
    out.int(r.jokerSlots);
    out.bytes(outs);
    out.int(r.outs);
    out.bytes(reasonKey);
    // a possible line's reason depends on these four numbers alone (value is the line's)
    const key = r.possible && r.outs < 1024 && r.jokerSlots < 15 ? ((r.line * 15 + r.tilesAway) * 15 + r.jokerSlots) * 1024 + r.outs : -1;
    const known = reasons.get(key);
    if (known !== undefined) out.bytes(known);
    else {
      const text = JSON.stringify(reason(r));
      if (key >= 0 && reasons.size < 100_000) reasons.set(key, enc(text));
      out.text(text);
    }
    out.bytes(close);
  };
}
