/**
 * Plays a practice game on from the server's side, as a person at the page would (the page's
 * own session, the same routes and `after`), until a condition holds: the browser tests reach
 * a late stage of a game in seconds, then reload the page to see it drawn. The person passes
 * the first three tiles that are not jokers, votes no, offers nothing, draws, discards the
 * first tile she may and lets every discard go (she never declares, so the game runs long).
 */

export interface GameAnswer {
  at: number;
  view: { phase: string; seat: number; rack: string[]; wallLeft: number; [k: string]: unknown };
  legal: Array<{ type: string; seat: number; tile?: string; yes?: boolean; [k: string]: unknown }>;
  events?: unknown[];
}

export async function playOn(base: string, session: { id: string; token: string }, until: (a: GameAnswer) => boolean, maxSteps = 600): Promise<GameAnswer> {
  const url = `${base}/api/games/${encodeURIComponent(session.id)}`;
  const headers = { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' };
  const read = async (r: Response) => {
    const body = (await r.json()) as GameAnswer & { error?: { message: string } };
    if (!r.ok) throw new Error(`the server refused: ${JSON.stringify(body)}`);
    return body;
  };
  let answer = await read(await fetch(`${url}?since=0`, { headers: { authorization: headers.authorization } }));
  for (let step = 0; step < maxSteps; step++) {
    if (until(answer) || answer.view.phase === 'ended') return answer;
    const v = answer.view;
    const of = (t: string) => answer.legal.filter((a) => a.type === t);
    let action: Record<string, unknown> | undefined;
    if (of('pass').length) action = { type: 'pass', seat: v.seat, tiles: v.rack.filter((t) => t !== 'J').slice(0, 3), blind: 0 };
    else if (of('vote').length) action = of('vote').find((a) => a.yes === false);
    else if (of('courtesy').length) action = { type: 'courtesy', seat: v.seat, tiles: [] };
    else if (of('draw').length) action = of('draw')[0];
    else if (of('discard').length) action = of('discard').find((a) => a.tile !== 'J') ?? of('discard')[0];
    else if (of('decline').length) action = of('decline')[0];
    if (action === undefined) throw new Error(`nothing to do in phase ${v.phase}: ${JSON.stringify(answer.legal)}`);
    answer = await read(await fetch(`${url}/actions`, { method: 'POST', headers, body: JSON.stringify({ ...action, after: answer.at }) }));
  }
  throw new Error(`the game did not reach the stage asked for in ${maxSteps} steps`);
}
