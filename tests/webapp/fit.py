"""What a player must see at every state of the table, whatever the screen: checked in the
browser at phone and desktop sizes by the whole-game tests."""

from __future__ import annotations

# A laptop, a small phone, a common phone.
SIZES = (
    {"width": 1280, "height": 800},
    {"width": 320, "height": 568},
    {"width": 390, "height": 844},
)

# Every hand card and enabled button inside the viewport, no horizontal scroll, no emoji left
# in the page's text (a phone without a colour emoji font shows empty boxes), and with a
# result open: its outcome line and buttons in sight without scrolling; on a desktop the table
# takes most of the window, the seats apart around it. The list of faults.
FAULTS = """() => {
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
  return bad;
}"""


async def faults(page, shot=None) -> list[str]:
    """The faults of the page as it is now, at each of ``SIZES``; ``shot(size)`` gives a
    screenshot's path for a size, or None for none. The page is checked first at the size it
    has (one resize fewer) and left at another: the clicks between checks happen at each size
    in turn."""
    found = []
    now = page.viewport_size
    first = SIZES.index(now) if now in SIZES else 0
    for size in SIZES[first:] + SIZES[:first]:
        if size != page.viewport_size:
            await page.set_viewport_size(size)
        for fault in await page.evaluate(FAULTS):
            found.append(f"{size['width']}x{size['height']}: {fault}")
        if shot is not None and (path := shot(size)) is not None:
            await page.screenshot(path=path)
    return found
