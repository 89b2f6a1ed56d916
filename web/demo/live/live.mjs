// The live prices page: two reads of Ticker entities (the list and one
// ticker), kept current by a StreamManager over the API's /live stream
// (Server-Sent Events). A message changes the entity in the cache; both
// reads see it, and nothing is fetched again.

import { Controller, Entity, StreamManager, load, resource } from '/dist/datafetch.bundle.mjs';

const API = '/rest';

class Ticker extends Entity {
  id = '';
  name = '';
  price = 0;
  ticks = 0;
}

const tickers = resource({ urlPrefix: API, path: '/tickers/:id', schema: Ticker });

const $ = (id) => document.getElementById(id);
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

await load();

// The page counts what it sees, for the reader and for the end-to-end test.
const seen = { messages: 0, requests: 0 };
const source = new EventSource(`${API}/live`);
source.addEventListener('open', () => {
  $('dot').classList.add('open');
  $('status').textContent = 'live';
});
source.addEventListener('error', () => {
  $('dot').classList.remove('open');
  $('status').textContent = 'reconnecting…';
});
source.addEventListener('message', () => {
  seen.messages++;
  $('messages').textContent = String(seen.messages);
});

const ctrl = new Controller({
  managers: [new StreamManager(source, { Ticker })],
  fetch: (url, init) => {
    seen.requests++;
    $('requests').textContent = String(seen.requests);
    return fetch(url, init);
  },
});

const last = new Map();
function direction(t) {
  const before = last.get(t.id);
  last.set(t.id, t.price);
  return before === undefined || before === t.price ? '' : t.price > before ? 'up' : 'down';
}

ctrl.subscribe(tickers.getList, {}, ({ data }) => {
  if (data === undefined) return;
  const rows = data.map((t) => {
    const tr = document.createElement('tr');
    tr.dataset.ticker = t.id;
    tr.innerHTML = '<td class="name"></td><td class="price"></td><td class="ticks"></td>';
    tr.querySelector('.name').textContent = t.name;
    const price = tr.querySelector('.price');
    price.textContent = money.format(t.price);
    const dir = direction(t);
    if (dir) price.classList.add(dir);
    tr.querySelector('.ticks').textContent = `${t.ticks} ${t.ticks === 1 ? 'tick' : 'ticks'}`;
    return tr;
  });
  $('list').replaceChildren(...rows);
});

ctrl.subscribe(tickers.get, { id: 'BTC' }, ({ data }) => {
  if (data === undefined) return;
  $('btc').textContent = money.format(data.price);
  $('btc-ticks').textContent = `${data.ticks} ${data.ticks === 1 ? 'tick' : 'ticks'} · the same entity as the list's first row`;
});

window.live = { ctrl, seen };
