// The player panel: the open recording (a demo, a teehistorian file, a capture) played on its map (player.ts
// draws it), with its controls (play, step, seek, speed, whom to follow, zoom, drag), and the map or the external
// images the user gives when the file lacks them. The worker prepares the frames and the map (playback.ts).
import { Player } from './player.js';
import { api, page, statusEl } from './page.js';
import { call } from './worker-client.js';

const playToggle = document.getElementById('play-toggle') as HTMLButtonElement;
const playerEl = document.getElementById('player')!;
const viewCanvas = document.getElementById('view') as HTMLCanvasElement;
const pPlay = document.getElementById('p-play') as HTMLButtonElement;
const pTime = document.getElementById('p-time') as HTMLInputElement;
const pTick = document.getElementById('p-tick')!;
const pSpeed = document.getElementById('p-speed') as HTMLSelectElement;
const pFollow = document.getElementById('p-follow') as HTMLSelectElement;
const pEntities = document.getElementById('p-entities') as HTMLInputElement;
const pFps = document.getElementById('p-fps')!;
const pNote = document.getElementById('p-note')!;
let player: Player | undefined;
/** The map the user gave for the open recording (kept for another client of the same capture). */
let givenMap: ArrayBuffer | undefined;
const pClient = document.getElementById('p-client') as HTMLSelectElement;
pClient.onchange = () => void preparePlayer(undefined, pClient.value);
/** The client chosen for a capture (whose received snapshots play), kept when a map or images are given. */
const chosenClient = () => (pClient.hidden || !pClient.value ? undefined : pClient.value);

/** The player of the open recording, once prepared. */
export function currentPlayer(): Player | undefined {
  return player;
}

/** Another file is being opened: its recording, if any, gets a new player. */
export function closePlayer(): void {
  player?.stop();
  player = undefined;
  givenMap = undefined;
  void togglePlayer(false);
  playToggle.hidden = true;
}

/** The open file is a recording: the button that opens the player shows. */
export function offerPlayer(): void {
  playToggle.hidden = false;
}

function showControls(p: Player): void {
  pPlay.textContent = p.state.playing ? '❚❚' : '▶';
  pTime.value = String(Math.round(p.state.tick));
  pTick.textContent = `tick ${Math.floor(p.state.tick)} / ${p.lastTick}`;
  pFps.textContent = p.state.playing && p.state.fps ? `${p.state.fps.toFixed(0)} fps` : '';
  if (pFollow.value !== p.state.follow && Array.from(pFollow.options).some((o) => o.value === p.state.follow)) pFollow.value = p.state.follow;
}

/** Opens the player (asking the worker for the frames and the map the first time), or goes back to the bytes. */
export async function togglePlayer(show = playerEl.hidden): Promise<void> {
  if (!show) {
    player?.pause();
    playerEl.hidden = true;
    document.body.classList.remove('playing');
    playToggle.textContent = '▶ Play on the map';
    return;
  }
  if (!player && !(await preparePlayer())) return;
  playerEl.hidden = false;
  document.body.classList.add('playing');
  playToggle.textContent = '☰ Bytes';
  player!.draw();
  showControls(player!);
  viewCanvas.focus();
}

/**
 * Asks the worker for the frames and the map (`map`: one the user gave, for a teehistorian file or instead of a
 * demo's own) and makes the player. False when there is nothing to play.
 */
async function preparePlayer(map?: ArrayBuffer, who?: string): Promise<boolean> {
  const current = page.state;
  playToggle.disabled = true;
  const before = statusEl.textContent;
  statusEl.textContent = 'Preparing the recording and its map…';
  if (map) givenMap = map.slice(0);
  const reply = await call({ op: 'playback', ...(map ? { map } : givenMap ? { map: givenMap.slice(0) } : {}), ...(who ? { player: who } : {}), ...(givenImages.length ? { images: givenImages } : {}) }, map ? [map] : []);
  playToggle.disabled = false;
  statusEl.textContent = before;
  if (page.state !== current || reply.op !== 'playback') return false;
  if (!map && givenMap && reply.needsMap) {
    // The map kept from another client of this capture is not this client's (a capture may hold sessions on
    // several servers): asked for again, without it, so that the page asks for this client's map.
    givenMap = undefined;
    return preparePlayer(undefined, who);
  }
  if (!reply.playback && !reply.needsMap) {
    statusEl.textContent = reply.error ?? 'Nothing to play.';
    return false;
  }
  // A capture whose map must be given first: an empty recording until it is.
  if (!reply.playback) reply.playback = { source: 'capture', frames: [{ tick: 0, tees: [], projectiles: [], lasers: [], pickups: [], flags: [], roster: 0, local: -1 }], rosters: [[]], chat: [], kills: [], note: '' };
  // Captures: whose received snapshots are played.
  pClient.hidden = !reply.players?.length;
  pClient.parentElement!.hidden = pClient.hidden;
  if (reply.players?.length) {
    pClient.replaceChildren(...reply.players.map((n) => new Option(n, n)));
    if (reply.player) pClient.value = reply.player;
  }
  const keep = player && { tick: player.state.tick, follow: player.state.follow, zoom: player.state.zoom };
  player?.stop();
  player = new Player(viewCanvas, reply.playback, reply.scene, showControls);
  await player.load();
  if (keep) Object.assign(player.state, keep);
  api.playbackMs = reply.ms;
  api.playerError = reply.error ?? '';
  pTime.min = String(player.firstTick);
  pTime.max = String(player.lastTick);
  // Follow: the recorder's view, each player by name, or a free camera.
  const names = new Map<number, string>();
  for (const roster of reply.playback.rosters) for (const p of roster) if (!names.has(p.id)) names.set(p.id, p.name);
  pFollow.replaceChildren(
    new Option(reply.playback.source === 'teehistorian' ? 'the first player' : "the recorder's view", 'recorder'),
    ...[...names].sort((a, b) => a[0] - b[0]).map(([id, name]) => new Option(`${name} (#${id})`, String(id))),
    new Option('free camera (drag)', 'free'),
  );
  const text = [reply.playback.note, ...(reply.scene?.notes ?? []), 'Tees are drawn in their colours without skin textures; positions are interpolated between recorded ticks.'].join(' ');
  pNote.replaceChildren(text);
  if (reply.error) pNote.prepend(Object.assign(document.createElement('div'), { className: 'error', textContent: reply.error }));
  if (reply.needsMap) {
    // The map is not in the file: the user gives it (checked against the header's SHA-256 by the worker).
    const label = document.createElement('label');
    label.className = 'need-map';
    label.textContent = `Drop the map "${reply.needsMap.name}" here or choose it${reply.needsMap.sha256 ? ` (SHA-256 ${reply.needsMap.sha256})` : ''}: `;
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'p-map';
    input.accept = '.map';
    input.onchange = () => {
      const file = input.files?.[0];
      if (file) void useMap(file);
    };
    label.append(input);
    pNote.prepend(label);
  } else if (!reply.scene) pNote.prepend('No map to draw on. ');
  if (reply.scene?.missing?.length) {
    // External images are the client's own: the user can give them (DDNet's data/mapres/*.png) to draw them.
    const label = document.createElement('label');
    label.className = 'need-map';
    label.textContent = `To draw ${reply.scene.missing.map((n) => `${n}.png`).join(', ')}, drop them here or choose them (from your DDNet's data/mapres): `;
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'p-images';
    input.multiple = true;
    input.accept = '.png';
    input.onchange = () => void useImages(Array.from(input.files ?? []));
    label.append(input);
    pNote.prepend(label);
  }
  player.draw();
  return true;
}

/** Images the user gave for the map's external images (the client's mapres), sent with every playback request. */
const givenImages: { name: string; width: number; height: number; rgba: Uint8ClampedArray<ArrayBuffer> }[] = [];

/** PNG files given for external images: decoded here (the browser's decoder), then the player is prepared again. */
export async function useImages(files: File[]): Promise<void> {
  for (const file of files) {
    try {
      const bitmap = await createImageBitmap(file, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const c = canvas.getContext('2d')!;
      c.drawImage(bitmap, 0, 0);
      const { data } = c.getImageData(0, 0, bitmap.width, bitmap.height);
      const name = file.name.replace(/\.png$/i, '');
      const at = givenImages.findIndex((g) => g.name === name);
      if (at >= 0) givenImages.splice(at, 1);
      givenImages.push({ name, width: bitmap.width, height: bitmap.height, rgba: data });
    } catch {
      // Not an image the browser decodes: left out (the note still names what is missing).
    }
  }
  if (await preparePlayer(undefined, chosenClient())) {
    player!.draw();
    showControls(player!);
  }
}

/** A map the user gave for the recording in the player. */
export async function useMap(file: File): Promise<void> {
  if (await preparePlayer(await file.arrayBuffer(), chosenClient())) {
    player!.draw();
    showControls(player!);
  }
}

playToggle.onclick = () => void togglePlayer();
pPlay.onclick = () => {
  if (!player) return;
  if (player.state.playing) player.pause();
  else player.play();
  showControls(player);
};
(document.getElementById('p-back') as HTMLButtonElement).onclick = () => player && (player.step(-1), showControls(player));
(document.getElementById('p-fwd') as HTMLButtonElement).onclick = () => player && (player.step(1), showControls(player));
(document.getElementById('p-zoom-in') as HTMLButtonElement).onclick = () => player?.zoomBy(1.25);
(document.getElementById('p-zoom-out') as HTMLButtonElement).onclick = () => player?.zoomBy(0.8);
pTime.oninput = () => player && (player.seek(Number(pTime.value)), showControls(player));
pSpeed.onchange = () => player && (player.state.speed = Number(pSpeed.value));
pFollow.onchange = () => player && ((player.state.follow = pFollow.value), player.draw());
const pFront = document.getElementById('p-front') as HTMLInputElement;
pFront.onchange = () => player && ((player.front = pFront.checked), player.draw());
pEntities.onchange = () => player && ((player.entities = pEntities.checked), player.draw());
viewCanvas.addEventListener('wheel', (e) => {
  e.preventDefault();
  player?.zoomBy(Math.exp(-e.deltaY * 0.0015));
});
viewCanvas.addEventListener('pointerdown', (e) => {
  if (!player) return;
  viewCanvas.setPointerCapture(e.pointerId);
  viewCanvas.classList.add('dragging');
  let [lx, ly] = [e.clientX, e.clientY];
  const move = (m: PointerEvent) => {
    player?.pan((m.clientX - lx) * devicePixelRatio, (m.clientY - ly) * devicePixelRatio);
    [lx, ly] = [m.clientX, m.clientY];
    if (player) showControls(player);
  };
  const up = () => {
    viewCanvas.classList.remove('dragging');
    viewCanvas.removeEventListener('pointermove', move);
    viewCanvas.removeEventListener('pointerup', up);
  };
  viewCanvas.addEventListener('pointermove', move);
  viewCanvas.addEventListener('pointerup', up);
});
viewCanvas.addEventListener('keydown', (e) => {
  if (!player) return;
  if (e.key === ' ') pPlay.click();
  else if (e.key === 'ArrowLeft') player.step(-1);
  else if (e.key === 'ArrowRight') player.step(1);
  else if (e.key === '+' || e.key === '=') player.zoomBy(1.25);
  else if (e.key === '-') player.zoomBy(0.8);
  else return;
  e.preventDefault();
  showControls(player);
});
