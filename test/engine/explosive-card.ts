/** A card that explodes: k tokens of nine alternatives and 14 - k singles (3 x 9^k forms to enumerate). */
export function explosiveCard(k: number): string {
  const alts = '1a|2a|3a|4a|5a|6a|7a|8a|9a';
  return `card: Boom\n[Boom]\n${Array(k).fill(alts).join(' ')} ${Array(14 - k)
    .fill('1a')
    .join(' ')} ; x 25\n`;
}
