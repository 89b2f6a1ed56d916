// What both apps of the first-request benchmark (firstrequest.mjs) do with
// the list once they have it: show every title, then mark the time
// (window.firstData, ms since navigation) and the count for the runner.

export function show(articles) {
  // The list handed to the app (firstrequest.mjs prints the page's marks).
  performance.mark('app: list received');
  const list = document.getElementById('list');
  const items = articles.map((a) => {
    const li = document.createElement('li');
    li.textContent = `${a.title} (${a.author.name})`;
    return li;
  });
  list.replaceChildren(...items);
  window.firstData = { at: performance.now(), count: articles.length, firstTitle: articles[0]?.title };
}

export function fail(err) {
  window.firstData = { error: String(err?.stack ?? err) };
}
