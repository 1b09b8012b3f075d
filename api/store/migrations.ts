import type { Db } from './sql.js';

/**
 * The schema, as numbered migrations run in order at start, each in its own transaction with
 * its number recorded in `schema_migrations`: a database is at version N once migrations 1..N
 * have run, and never runs one twice. A migration, once shipped, is never edited: a change is
 * a new migration at the end. Two servers starting on one database wait on each other
 * (an advisory lock), so a migration runs once.
 */

export const MIGRATIONS: readonly { name: string; sql: string }[] = [
  {
    name: 'live games and finished records',
    sql: `
      -- a game in play: what reopens it (token hash, seat, the record's header) and the bots'
      -- random stream after its last committed action; its actions are live_actions' rows
      CREATE TABLE live_games (
        id text PRIMARY KEY,
        owner text NOT NULL,
        token_hash bytea NOT NULL,
        seat integer NOT NULL,
        auto_play boolean NOT NULL,
        header jsonb NOT NULL,
        rng jsonb NOT NULL,
        actions integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      -- action n of a live game, in the record's own form
      CREATE TABLE live_actions (
        game_id text NOT NULL REFERENCES live_games (id) ON DELETE CASCADE,
        n integer NOT NULL,
        action jsonb NOT NULL,
        PRIMARY KEY (game_id, n)
      );
      -- a finished game: the record's text (docs/records.md) with what a list shows of it
      CREATE TABLE records (
        id text PRIMARY KEY,
        owner text,
        game text NOT NULL,
        ruleset text NOT NULL,
        card text,
        seed bigint NOT NULL,
        seats jsonb NOT NULL,
        winners jsonb NOT NULL,
        scores jsonb NOT NULL,
        wall_game boolean,
        actions integer NOT NULL,
        text text NOT NULL,
        finished_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX records_newest ON records (finished_at DESC, id);
      -- one-off facts about this database (the data folder's files imported, ...)
      CREATE TABLE store_facts (
        name text PRIMARY KEY,
        value jsonb NOT NULL
      );
    `,
  },
  {
    name: 'players, sessions, owned games and cards',
    sql: `
      -- a person: a guest (no name, no password) until she signs up, keeping her id and so her games
      CREATE TABLE players (
        id text PRIMARY KEY,
        name text,
        name_key text UNIQUE,
        password_hash text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      -- a signed-in browser: the cookie's token, kept only as its hash
      CREATE TABLE sessions (
        token_hash bytea PRIMARY KEY,
        player_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX sessions_player ON sessions (player_id);
      ALTER TABLE live_games ADD COLUMN player_id text REFERENCES players (id) ON DELETE SET NULL;
      ALTER TABLE records ADD COLUMN player_id text REFERENCES players (id) ON DELETE SET NULL;
      ALTER TABLE records ADD COLUMN seat integer;
      CREATE INDEX records_player_newest ON records (player_id, finished_at DESC, id);
      -- a player's own cards, by a name she chooses
      CREATE TABLE cards (
        player_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        name text NOT NULL,
        text text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (player_id, name)
      );
      -- cards saved on this server before accounts: everyone may choose them, nobody changes them
      CREATE TABLE shared_cards (
        name text PRIMARY KEY,
        text text NOT NULL
      );
    `,
  },
  {
    name: 'reviews once computed',
    sql: `
      -- a record's review for one seat, as the server's defaults computed it (a review of the
      -- same record, seat and deals gives the same answer: kept, it opens at once)
      CREATE TABLE reviews (
        record_id text NOT NULL REFERENCES records (id) ON DELETE CASCADE,
        seat integer NOT NULL,
        worlds integer NOT NULL,
        review jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (record_id, seat, worlds)
      );
    `,
  },
  {
    name: 'coaches and their students',
    sql: `
      -- a code a student gives her coach, kept only as its hash, good for a few days
      CREATE TABLE coach_invites (
        code_hash bytea PRIMARY KEY,
        student_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL
      );
      -- a coach who may see a student's games, reviews and progress, until the student withdraws it
      CREATE TABLE coach_links (
        student_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        coach_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (student_id, coach_id)
      );
      CREATE INDEX coach_links_coach ON coach_links (coach_id);
    `,
  },
  {
    name: 'tables together',
    sql: `
      -- a table people share (docs/tables.md): its game, its seats (empty, a bot, a person) and,
      -- once started, its deal and the bots' random stream after its last committed action;
      -- version counts every change, and a change is written only over the version it was made from
      CREATE TABLE tables (
        id text PRIMARY KEY,
        code text NOT NULL UNIQUE,
        game text NOT NULL,
        params jsonb NOT NULL,
        host_id text REFERENCES players (id) ON DELETE SET NULL,
        -- the address that opened it (tables open at once are counted by address)
        owner text NOT NULL,
        teaching boolean NOT NULL,
        clock text NOT NULL,
        away_after integer NOT NULL,
        level text NOT NULL,
        status text NOT NULL,
        seats jsonb NOT NULL,
        seed bigint,
        rng jsonb,
        actions integer NOT NULL DEFAULT 0,
        version integer NOT NULL DEFAULT 0,
        turn_since timestamptz,
        wake_at timestamptz,
        lease_owner text,
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        touched_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX tables_wake ON tables (wake_at) WHERE status = 'playing';
      -- who holds a token for the table: the host, each seated person, spectators, the coach
      CREATE TABLE table_members (
        token_hash bytea PRIMARY KEY,
        table_id text NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        role text NOT NULL,
        seat integer,
        name text NOT NULL,
        player_id text REFERENCES players (id) ON DELETE SET NULL,
        host boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX table_members_table ON table_members (table_id);
      -- action n of a table's game, in the record's own form; by_bot: a bot played it for an absent or timed-out person
      CREATE TABLE table_actions (
        table_id text NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        n integer NOT NULL,
        action jsonb NOT NULL,
        by_bot boolean NOT NULL DEFAULT false,
        PRIMARY KEY (table_id, n)
      );
      -- the last time each seat's person was connected (any server) or acted
      CREATE TABLE table_presence (
        table_id text NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seat integer NOT NULL,
        seen_at timestamptz NOT NULL,
        PRIMARY KEY (table_id, seat)
      );
      -- who else may read a record: a teaching table's coach reads her students' records
      CREATE TABLE record_readers (
        record_id text NOT NULL REFERENCES records (id) ON DELETE CASCADE,
        player_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        PRIMARY KEY (record_id, player_id)
      );
    `,
  },
  {
    name: 'reviews by the advice that made them',
    sql: `
      -- a review is kept with the method that computed it (agents/coach/review.ts REVIEW_METHOD):
      -- one made before the advice changed is not served as today's answer, and still counts in
      -- a player's progress until she opens the game's review again
      ALTER TABLE reviews ADD COLUMN method integer NOT NULL DEFAULT 1;
      ALTER TABLE reviews DROP CONSTRAINT reviews_pkey;
      ALTER TABLE reviews ADD PRIMARY KEY (record_id, seat, worlds, method);
    `,
  },
  {
    name: 'saved cards shared by a code',
    sql: `
      -- a saved card its owner shares read-only by a short code (api/store/card-shares.ts): the
      -- code names her card, never a copy, so whoever opens it sees her latest text; the code
      -- goes when she stops sharing or deletes the card, and is never given again
      CREATE TABLE card_shares (
        code text PRIMARY KEY,
        player_id text NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (player_id, name),
        FOREIGN KEY (player_id, name) REFERENCES cards (player_id, name) ON DELETE CASCADE
      );
      -- a shared card another player opened and keeps on her list of cards, by its code
      CREATE TABLE card_bookmarks (
        player_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        code text NOT NULL REFERENCES card_shares (code) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (player_id, code)
      );
      CREATE INDEX card_bookmarks_code ON card_bookmarks (code);
    `,
  },
  {
    name: 'a finished game opens with its token',
    sql: `
      -- a game against bots, once finished, keeps its token's hash with its record (its live rows
      -- go with its last actions): a player whose last answer was cut off, even by a restart,
      -- still opens how the game ended (read-only); records kept before, and tables', have none
      ALTER TABLE records ADD COLUMN token_hash bytea;
    `,
  },
  {
    name: 'limits a minute counted by every server',
    sql: `
      -- what a key did in the current minute's window (a sign-in attempt per name tried, per
      -- address, per account's password change; a request that plays deals out per address; each
      -- key kept only as its hash): every server on the database counts the same, so the limits
      -- hold however many servers there are
      CREATE TABLE rate_windows (
        key text PRIMARY KEY,
        window_start timestamptz NOT NULL DEFAULT now(),
        count integer NOT NULL DEFAULT 1
      );
      CREATE INDEX rate_windows_window ON rate_windows (window_start);
    `,
  },
  {
    name: 'every game is a table',
    sql: `
      -- a game against bots is a table too (api/http/tables.ts): one person's seat, the bots in
      -- the others, no join code (its code is its id, which no join accepts) and nobody standing
      -- in for her while she is away (its level, the stand-in's, is a bot of its own game's);
      -- auto_play: her forced draws and declines are made for her
      ALTER TABLE tables ADD COLUMN solo boolean NOT NULL DEFAULT false;
      ALTER TABLE tables ADD COLUMN auto_play boolean NOT NULL DEFAULT true;
      CREATE INDEX tables_owner_live ON tables (owner) WHERE status <> 'over';
      -- a person's token opens how her game ended once its table has gone, by the hash her record keeps
      CREATE INDEX records_token ON records (token_hash) WHERE token_hash IS NOT NULL;
      -- the games against bots in progress move over, each with its actions and its token
      INSERT INTO tables (id, code, game, params, host_id, owner, teaching, clock, away_after, level, status, seats, seed, rng, actions, turn_since, created_at, touched_at, solo, auto_play)
      SELECT g.id, g.id,
             CASE g.header->>'format' WHEN 'tilemate-domino-record' THEN 'mexican-train' ELSE 'mah-jongg' END,
             g.header - 'format' - 'version' - 'seed' - 'seats', g.player_id, g.owner, false, 'off', 0,
             g.header->'seats'->>(CASE WHEN g.seat = 0 THEN 1 ELSE 0 END), 'playing',
             (SELECT jsonb_agg(CASE WHEN x.o - 1 = g.seat THEN jsonb_build_object('kind', 'person', 'name', 'human', 'level', NULL)
                                    ELSE jsonb_build_object('kind', 'bot', 'name', NULL, 'level', x.s) END ORDER BY x.o)
                FROM jsonb_array_elements_text(g.header->'seats') WITH ORDINALITY AS x(s, o)),
             (g.header->>'seed')::bigint, g.rng, g.actions, now(), g.created_at, now(), true, g.auto_play
      FROM live_games g;
      INSERT INTO table_members (token_hash, table_id, role, seat, name, player_id, host)
      SELECT token_hash, id, 'player', seat, 'You', player_id, true FROM live_games;
      INSERT INTO table_actions (table_id, n, action, by_bot) SELECT game_id, n, action, false FROM live_actions;
      DROP TABLE live_actions;
      DROP TABLE live_games;
    `,
  },
  {
    name: "drills: her mistakes practised again, and her coach's sets",
    sql: `
      -- a mistake her review found, practised as a drill at that very position: its schedule
      -- (a ts-fsrs card) once she has answered it; a mistake with no row is new, due since its review
      CREATE TABLE practice_cards (
        player_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        record_id text NOT NULL REFERENCES records (id) ON DELETE CASCADE,
        decision integer NOT NULL,
        fsrs jsonb NOT NULL,
        due timestamptz NOT NULL,
        answered integer NOT NULL DEFAULT 0,
        right_answers integer NOT NULL DEFAULT 0,
        last_right boolean NOT NULL,
        answered_at timestamptz NOT NULL,
        PRIMARY KEY (player_id, record_id, decision)
      );
      CREATE INDEX practice_cards_due ON practice_cards (player_id, due);
      -- drills a coach gives a student (one row per student given them): the drills' numbers,
      -- and the first answer to each (the coach sees how she did while she shares her games)
      CREATE TABLE drill_sets (
        id text PRIMARY KEY,
        coach_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        student_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        kind text NOT NULL,
        level integer NOT NULL,
        seeds jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX drill_sets_student ON drill_sets (student_id);
      CREATE INDEX drill_sets_coach ON drill_sets (coach_id);
      CREATE TABLE drill_set_answers (
        set_id text NOT NULL REFERENCES drill_sets (id) ON DELETE CASCADE,
        seed bigint NOT NULL,
        right_answer boolean NOT NULL,
        answered_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (set_id, seed)
      );
    `,
  },
  {
    name: 'club events: each one its list of changes',
    sql: `
      -- a club event (issue 47): its director and name; the event itself is its changes, in order
      CREATE TABLE events (
        code text PRIMARY KEY,
        director_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX events_director ON events (director_id, created_at);
      -- every change, with who made it and when (the audit log); a phone's entry id kept once
      CREATE TABLE event_changes (
        event_code text NOT NULL REFERENCES events (code) ON DELETE CASCADE,
        n integer NOT NULL,
        change jsonb NOT NULL,
        by_whom text NOT NULL,
        entry text,
        at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (event_code, n)
      );
      CREATE UNIQUE INDEX event_changes_entry ON event_changes (event_code, entry) WHERE entry IS NOT NULL;
    `,
  },
  {
    name: 'the card a player chose, kept with her account',
    sql: `
      -- the card every page starts on for her (issue 62): a saved card's name, shared:CODE, or ''
      -- for the practice card; null until she chooses one while signed in (each device keeps its own)
      ALTER TABLE players ADD COLUMN chosen_card text;
    `,
  },
  {
    name: "an event's changes by the card that made them",
    sql: `
      -- issue 63: each change a player's card makes names her card (her player id): a card's
      -- changes are bounded apart from the event's, and a phone's entry id is hers alone (the
      -- same id from another card is that card's own entry). The entries kept so far were each
      -- a player's game on her card.
      ALTER TABLE event_changes ADD COLUMN card text;
      UPDATE event_changes SET card = change ->> 'player' WHERE entry IS NOT NULL AND change ->> 'type' = 'enter';
      DROP INDEX event_changes_entry;
      CREATE UNIQUE INDEX event_changes_card_entry ON event_changes (event_code, (coalesce(card, '')), entry) WHERE entry IS NOT NULL;
      CREATE INDEX event_changes_card ON event_changes (event_code, card);
    `,
  },
];

/** Brings the database up to the newest migration (or to `upTo`: a test's older database); answers the version it is at. */
export async function migrate(db: Db, upTo = MIGRATIONS.length): Promise<number> {
  return db.transaction(async (sql) => {
    // one server migrates at a time; the lock ends with the transaction
    await sql.query('SELECT pg_advisory_xact_lock(7316000)');
    await sql.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    const [{ v }] = await sql.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations');
    const at = v ?? 0;
    if (at > MIGRATIONS.length) throw new Error(`the database is at schema version ${at}, newer than this Tilemate (${MIGRATIONS.length}): update Tilemate`);
    for (let i = at; i < upTo; i++) {
      // one statement a call (the embedded database's queries take one)
      for (const statement of MIGRATIONS[i].sql.split(/;\s*$/m)) if (statement.replace(/--.*$/gm, '').trim() !== '') await sql.query(statement);
      await sql.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [i + 1, MIGRATIONS[i].name]);
    }
    return Math.max(at, upTo);
  });
}
