// What the game page knows: the protocol's game object as the server last told it
// (docs/protocol.md: `hello`/`state` are the whole truth, `move`, `event` and `end` update
// it), the visitor's side, the positions replayed from the moves, and the position under review.
// Every part of the page reads it; only the socket's messages (game/messages.js) and the
// visitor's own requests change it.

export const other = (c) => (c === 'white' ? 'black' : 'white');

export function gameState(id) {
  return {
    id,
    g: null, // the protocol's game object
    you: null,
    positions: [], // parsed positions, [0] initial … [ply]
    viewPly: null, // null: following the game
    lastTouch: null,
    berserked: false,
    /** The sides that went berserk (ours from our request, the opponent's from the event). */
    berserkers: new Set(),
    isLive() { return this.g && this.g.status === 'live'; },
    myTurn() { return this.isLive() && this.you && this.g.turn === this.you; },
    touchMove() { return this.g && (this.g.rules === 'seed' || this.g.rules === 'fide'); },
    /** How the game's positions read: `{chess960}` for chess.js (RULES.md §13). */
    variant() { return { chess960: !!this.g && this.g.variant === 'chess960' }; },
    /** Whether this player may not offer a draw now (§7). */
    barred() {
      const { g, you } = this;
      return !!(g && you && (g.offer === you || (g.offer_barred && g.offer_barred[you])));
    },
  };
}
