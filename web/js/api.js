// The HTTP API of docs/api.md: JSON in and out, the double-submit CSRF header on every POST
// and DELETE, errors as `ApiError` carrying the server's code, field and message.

export class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || {};
    super(e.message || `HTTP ${status}`);
    this.status = status;
    this.code = e.code || String(status);
    this.field = e.field || null;
  }
}

function cookie(name) {
  const m = document.cookie.match(new RegExp('(?:^|;\\s*)' + name + '=([^;]*)'));
  return m ? decodeURIComponent(m[1]) : null;
}

let csrf = null;

async function request(method, path, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = cookie('rookery_csrf') || csrf || '';
  const res = await fetch('/api/v1' + path, {
    method, headers, credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return null;
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (!res.ok) throw new ApiError(res.status, json || { error: { message: text || res.statusText } });
  return json;
}

/** The visitor: `{user, anonymous_name, csrf}`; also sets the cookies a new visitor lacks. */
export async function account() {
  const a = await request('GET', '/account');
  if (a && a.csrf) csrf = a.csrf;
  return a;
}

export const signup = (username, password) => request('POST', '/account/signup', { username, password });
export const login = (username, password) => request('POST', '/account/login', { username, password });
export const logout = () => request('POST', '/account/logout');
/** A class account's first log-in: the printed code and a new password (api.md "Class accounts"). */
export const firstLogin = (username, code, password) => request('POST', '/account/first-login', { username, code, password });
export const classAccounts = () => request('GET', '/class/accounts');
/** Creates a class's accounts from a list (`name,level` a line), all or none. */
export const createClassAccounts = (csv) => request('POST', '/class/accounts', { csv });
export const renewClassCode = (name) => request('POST', `/class/accounts/${encodeURIComponent(name)}/code`);

export const seeks = () => request('GET', '/seeks');
export const createSeek = (seek) => request('POST', '/seeks', seek);
export const createChallenge = (challenge) => request('POST', '/challenges', challenge);
export const cancelSeek = (id) => request('DELETE', `/seeks/${encodeURIComponent(id)}`);
export const acceptSeek = (id) => request('POST', `/seeks/${encodeURIComponent(id)}/accept`);
export const engineGame = (spec) => request('POST', '/engine-games', spec);

export const liveGames = () => request('GET', '/games/live');
export const game = (id) => request('GET', `/games/${encodeURIComponent(id)}`);
export const pgnUrl = (id) => `/api/v1/games/${encodeURIComponent(id)}/pgn`;
/** The engine's view of one position of a finished game, after `ply` moves. */
export const analysis = (id, ply) => request('GET', `/games/${encodeURIComponent(id)}/analysis?ply=${ply}`);
/** The whole game's analysis job: `{status: none|queued|running|done|failed, …}` (docs/api.md). */
export const gameAnalysis = (id) => request('GET', `/games/${encodeURIComponent(id)}/analysis`);
/** Asks for the whole game's analysis (once; asking again changes nothing). */
export const requestAnalysis = (id) => request('POST', `/games/${encodeURIComponent(id)}/analysis`);

export const user = (name) => request('GET', `/users/${encodeURIComponent(name)}`);
export const userPgnUrl = (name) => `/api/v1/users/${encodeURIComponent(name)}/games.pgn`;
export const leaderboard = (limit, offset) => request('GET', `/leaderboard?limit=${limit}&offset=${offset}`);

// Tournaments (api.md "Tournaments").
const tour = (id) => `/tournaments/${encodeURIComponent(id)}`;
export const tournaments = () => request('GET', '/tournaments');
export const createTournament = (spec) => request('POST', '/tournaments', spec);
export const importTournament = (spec) => request('POST', '/tournaments/import', spec);
export const tournament = (id) => request('GET', tour(id));
export const joinTournament = (id, password) => request('POST', `${tour(id)}/join`, password ? { password } : {});
export const withdrawTournament = (id) => request('POST', `${tour(id)}/withdraw`, {});
export const requestBye = (id, round, kind) => request('POST', `${tour(id)}/byes`, { round, kind });
export const reportResult = (id, round, board, result) => request('POST', `${tour(id)}/report`, { round, board, result });
export const cancelBye = (id, round) => request('DELETE', `${tour(id)}/byes/${round}`);
export const berserk = (id, game) => request('POST', `${tour(id)}/berserk`, { game });
/** A team's line-up for a round, by its captain: `{round, team, players}` (api.md, *Teams*). */
export const lineUp = (id, body) => request('POST', `${tour(id)}/line_up`, body);
/** An arbiter's action: `{action, …fields, reason}` (only the creator may). */
export const arbiter = (id, action) => request('POST', `${tour(id)}/arbiter`, action);
/** An over-the-board tournament's player list: `{text, format?}` (CSV or TRF). */
export const roster = (id, body) => request('POST', `${tour(id)}/roster`, body);
/** A board's moves typed from its scoresheet (over the board), as one move list. */
export const saveMoves = (id, round, board, moves) => request('PUT', `${tour(id)}/boards/${round}/${board}/moves`, { moves });
/** The exports, as links: `trf`, `pgn`, `standings.csv`, `standings.html`. */
export const tournamentFileUrl = (id, file) => `/api/v1${tour(id)}/${file}`;

export function socketUrl(path) {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}/api/v1${path}`;
}
