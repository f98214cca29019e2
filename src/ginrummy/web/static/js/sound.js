// A few short sounds, made on the spot (no files): off unless the player turns them on.
let context = null;

function tone(freq, start, length, volume = 0.08, type = "sine") {
  const osc = context.createOscillator();
  const gain = context.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(volume, context.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(0.0001, context.currentTime + start + length);
  osc.connect(gain).connect(context.destination);
  osc.start(context.currentTime + start);
  osc.stop(context.currentTime + start + length);
}

const SOUNDS = {
  card: () => tone(520, 0, 0.06, 0.05, "triangle"),
  turn: () => {
    tone(660, 0, 0.09);
    tone(880, 0.1, 0.12);
  },
  knock: () => {
    tone(180, 0, 0.08, 0.12, "square");
    tone(180, 0.12, 0.08, 0.12, "square");
  },
  win: () => {
    tone(523, 0, 0.12);
    tone(659, 0.12, 0.12);
    tone(784, 0.24, 0.2);
  },
  lose: () => {
    tone(392, 0, 0.15);
    tone(311, 0.16, 0.25);
  },
};

export function playSound(name, enabled) {
  if (!enabled || !SOUNDS[name]) return;
  try {
    context = context || new AudioContext();
    if (context.state === "suspended") context.resume();
    SOUNDS[name]();
  } catch {
    /* no audio here */
  }
}
