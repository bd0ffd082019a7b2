// The lesson menu (SPEC §7 `data-role="lesson"`, value = the lesson id)
// and the compare menu. The lessons — title, text, preset, live check —
// are the core's (src/lessons.rs, through wasm `lessons()`); this file only
// fills the menus and hands a pick to the page.

/** Fills the lesson `<select>`: no lesson, then the core's lessons in order. */
export function fillLessonMenu(select, lessons) {
  const none = new Option('— none: free play —', '');
  select.replaceChildren(none, ...lessons.map((l) => {
    const o = new Option(l.title, l.id);
    o.title = `${l.paper.replace(/^[^(]*\(|\)$/g, '')} — ${l.section}`;
    return o;
  }));
}

/** Fills the compare `<select>`: none, then every algorithm of the catalogue. */
export function fillCompareMenu(select, algorithms) {
  select.replaceChildren(new Option('— none —', ''), ...algorithms.map((a) => {
    const o = new Option(a.name, a.name);
    o.title = a.summary;
    o.dataset.about = a.summary;
    return o;
  }));
}

/**
 * Marks the compare menu: an algorithm the core says cannot run on the
 * network (`choices` = [{name, ok, reason}]) is disabled with the reason;
 * the kept choice that could not run on this instance (`refused`) is named so.
 */
export function markCompareMenu(select, choices, refused = null) {
  for (const o of select.options) {
    const c = choices?.find((x) => x.name === o.value);
    o.disabled = !!c && !c.ok;
    o.title = o.disabled ? c.reason : (o.dataset.about ?? '');
    // A choice kept (it runs again where it can) but not run now — the network refuses it, or
    // this instance (`refused`: the page's last rebuild could not run it) — reads so in the closed menu too.
    if (o.value) {
      const text = o.disabled || o.value === refused ? `${o.value} (cannot run here)` : o.value;
      if (o.text !== text) o.text = text;
    }
  }
}
