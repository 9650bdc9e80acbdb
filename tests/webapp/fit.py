"""What a player must see at every state of the table, whatever the screen: checked in the
browser at phone and desktop sizes by the whole-game tests."""

from __future__ import annotations

from tests.webapp.conftest import SCREENSHOTS

# A laptop, a small phone, a common phone.
SIZES = (
    {"width": 1280, "height": 800},
    {"width": 320, "height": 568},
    {"width": 390, "height": 844},
)

# What the table must say at a glance, with no panel over it (``READS`` in the page):
# - no text line of the header, the notes or the buttons clipped, ellipsised or spilling out of
#   its box, and no button on more than two lines (its label, its help);
# - during Belòta's bidding, every seat that spoke shows what it said on its tag, in sight;
# - when the player's hand must follow a trick, each card of that trick lies on the felt (and
#   no card of another trick);
# - no card of the trick has its top-left index (rank and suit) under anything;
# - nothing drawn on the felt (a card, the deck, a caption) lies under a seat's tag.
READS = """
const READS = (W, H) => {
  const bad = [];
  const box = (el) => el.getBoundingClientRect();
  const meet = (a, b) =>
    a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const label = (el) => el.textContent.trim().replace(/\\s+/g, " ").slice(0, 50);
  const lines = (el) => {
    const tops = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim()) continue;
      range.selectNodeContents(node);
      for (const r of range.getClientRects())
        if (r.height && !tops.some((t) => Math.abs(t - r.bottom) < r.height / 2))
          tops.push(r.bottom);
    }
    return tops.length;
  };
  const texts = ".bar, .bar *, .notes, .notes *, .actions, .actions *";
  for (const el of document.querySelectorAll(texts)) {
    if (!el.getClientRects().length || el instanceof SVGElement) continue;
    const css = getComputedStyle(el);
    const hides = css.overflowX !== "visible" || css.overflowY !== "visible";
    const wide = el.scrollWidth > el.clientWidth + 1, tall = el.scrollHeight > el.clientHeight + 1;
    if (css.textOverflow === "ellipsis" && wide) bad.push(`ellipsised: ${label(el)}`);
    else if (hides && (wide || tall)) bad.push(`clipped: ${label(el)}`);
    else if (css.webkitLineClamp !== "none" && tall) bad.push(`clamped: ${label(el)}`);
    else if (el.matches("button") && wide) bad.push(`spills out of its button: ${label(el)}`);
    const r = box(el);
    if (el.matches(".bar, .notes, .actions") && (r.left < -1 || r.right > W + 1))
      bad.push(`wider than the screen: ${label(el)}`);
  }
  for (const el of document.querySelectorAll(".actions button.act")) {
    if (lines(el) > 2) bad.push(`a button on ${lines(el)} lines: ${label(el)}`);
  }
  if (typeof state === "undefined" || !state || !document.querySelector(".felt")) return bad;
  const v = state.view;
  const seen = (el) => {
    const r = box(el);
    if (r.width < 1 || r.left < -1 || r.right > W + 1 || r.top < -1 || r.bottom > H + 1)
      return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return Boolean(hit && (el === hit || el.contains(hit)));
  };
  if (state.kind === "belota" && v.phase === "bidding") {
    for (const [seat] of v.bids) {
      const said = document.querySelector(`.tag[data-seat="${seat}"] .said`);
      if (!said || !said.textContent.trim()) bad.push(`seat ${seat}'s bid is not on its tag`);
      else if (!seen(said)) bad.push(`seat ${seat}'s bid is out of sight: ${label(said)}`);
    }
  }
  const onFelt = [...document.querySelectorAll(".trick .card")];
  if (state.legal.length && v.trick && v.trick.length) {
    const drawn = onFelt.map((el) => el.dataset.code).sort().join();
    const lead = v.trick.map((t) => t.card).sort().join();
    if (drawn !== lead)
      bad.push(`the hand follows ${lead} but the felt shows ${drawn || "nothing"}`);
  }
  for (const el of onFelt) {
    const r = box(el);
    for (const [fx, fy] of [[0.1, 0.08], [0.24, 0.08], [0.1, 0.2], [0.24, 0.2], [0.17, 0.3]]) {
      const hit = document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height);
      if (!hit || hit.closest(".card") !== el) {
        const by = hit ? hit.className.baseVal ?? hit.className : "nothing";
        bad.push(`the index of ${el.dataset.code} is covered by ${by}`);
        break;
      }
    }
  }
  const drawnOnFelt = document.querySelectorAll(
    ".felt .trick .card, .felt .centre :not(.ghost) > .card, .felt .centre .caption," +
      ".felt .centre .suit, .felt .centre .stock, .felt .centre .empty, .felt .shown figcaption",
  );
  const tags = [...document.querySelectorAll(".felt .tag")];
  for (const tag of tags) {
    const t = box(tag);
    for (const el of drawnOnFelt) {
      const what = el.dataset.code || label(el) || el.className;
      if (meet(t, box(el))) bad.push(`${what} lies under the tag of seat ${tag.dataset.seat}`);
    }
    for (const other of tags)
      if (other !== tag && meet(t, box(other)))
        bad.push(`the tags of seats ${tag.dataset.seat} and ${other.dataset.seat} overlap`);
  }
  return bad;
};
"""

# The page is checked once its animations are over (a card dropping in, a trick flying to
# its winner): what stays on the screen is what the player reads.
SETTLE = """async () => {
  for (let i = 0; i < 5; i++) {
    const running = document.getAnimations().filter((a) => a.playState === "running");
    if (!running.length) return;
    const over = Promise.all(running.map((a) => a.finished.catch(() => null)));
    await Promise.race([over, new Promise((done) => setTimeout(done, 1500))]);
    await new Promise((done) => setTimeout(done, 60)); // the page's own timers after a flight
  }
}"""

# Every hand card and enabled button inside the viewport, no horizontal scroll, no emoji left
# in the page's text (a phone without a colour emoji font shows empty boxes), and with a
# result open: its outcome line and buttons in sight without scrolling; on a desktop the table
# takes most of the window, the seats apart around it. The list of faults.
FAULTS = (
    "async () => {"
    + "await ("
    + SETTLE
    + ")();"
    + READS
    + """
  const W = innerWidth, H = innerHeight, bad = [];
  const box = (el) => el.getBoundingClientRect();
  const inside = (r) => r.left >= -1 && r.right <= W + 1 && r.top >= -1 && r.bottom <= H + 1;
  const name = (el) => (el.dataset.card || el.dataset.action || el.id || el.textContent).trim();
  const wide = document.documentElement.scrollWidth;
  if (wide > W) bad.push(`scrolls sideways: ${wide} > ${W}`);
  if (scrollY !== 0) bad.push(`scrolled by ${scrollY}`);
  const panel = document.querySelector(".result");
  for (const el of document.querySelectorAll("button")) {
    if (el.disabled || !el.getClientRects().length) continue;
    if (panel && !panel.contains(el)) continue; // under the panel: not to be pressed now
    const r = box(el);
    const at = [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
    if (!inside(r)) bad.push(`out of sight: ${name(el)} at ${at}`);
  }
  if (panel) {
    const outcome = panel.querySelector(".outcome");
    if (!outcome || !inside(box(outcome))) bad.push("the result's outcome is out of sight");
    if (!panel.querySelector("#close-result")) bad.push("the result has no close button");
  }
  const felt = document.querySelector(".felt");
  const seats = [...document.querySelectorAll(".felt .seat")].map(box);
  const middle = (r) => [r.x + r.width / 2, r.y + r.height / 2];
  for (const [i, a] of seats.entries()) {
    const edge = felt && box(felt);
    if (edge && (a.left < edge.left - 1 || a.right > edge.right + 1)) bad.push(`seat ${i} off`);
    for (const b of seats.slice(i + 1)) {
      const [ax, ay] = middle(a), [bx, by] = middle(b);
      if (Math.hypot(ax - bx, ay - by) < 40) bad.push("two seats in one place");
    }
  }
  if (felt && W >= 1000 && box(felt).width < 0.6 * W) bad.push("the table stays small");
  const text = document.body.innerText;
  const emoji = text.match(/\\p{Extended_Pictographic}/u);
  if (emoji) bad.push(`an emoji in the text: ${emoji[0]}`);
  if (!panel) bad.push(...READS(W, H));
  return bad;
}"""
)


async def faults(page, shot=None, name: str = "page") -> list[str]:
    """The faults of the page as it is now, at each of ``SIZES``; ``shot(size)`` gives a
    screenshot's path for a size, or None for none; a size with faults is saved as
    ``fault-NAME-SIZE.png``. The page is checked first at the size it
    has (one resize fewer) and left at another: the clicks between checks happen at each size
    in turn."""
    found = []
    now = page.viewport_size
    first = SIZES.index(now) if now in SIZES else 0
    for size in SIZES[first:] + SIZES[:first]:
        if size != page.viewport_size:
            await page.set_viewport_size(size)
        seen = await page.evaluate(FAULTS)
        for fault in seen:
            found.append(f"{size['width']}x{size['height']}: {fault}")
        if seen:  # what the fault looks like, for whoever reads the failure
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            await page.screenshot(
                path=SCREENSHOTS / f"fault-{name}-{size['width']}x{size['height']}.png"
            )
        if shot is not None and (path := shot(size)) is not None:
            await page.screenshot(path=path)
    return found
