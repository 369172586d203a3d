/** Keys a `dtmf_input` may press: 1 to 32 of the phone keypad's digits, `*` and `#`. */
export const DTMF_DIGITS_PATTERN = /^[0-9*#]{1,32}$/;

/** The most keys one keypad entry keeps; a phone line gives up long before. */
export const KEYPAD_ENTRY_MAX = 64;

/** What a customer typed while the assistant collected keypad digits. */
export interface KeypadEntry {
  /** The keys before the stop key, in order (the stop key itself is not part of the entry). */
  readonly digits: string;
  /** The line also held words (a customer answering in speech rather than keys); the assistant hears them too. */
  readonly words: boolean;
}

/**
 * A typed line read as keypad presses: its keypad keys (0-9, `*`, `#`) in order, up to the stop
 * key, as a phone would send them; spaces, dashes and other separators are no keys. Letters make
 * the line words as well, so "I do not have it" reaches the assistant instead of vanishing.
 */
export function keypadEntry(line: string, stopKey: '#' | '*'): KeypadEntry {
  const keys = [...line].filter((c) => /[0-9*#]/.test(c)).join('');
  const stop = keys.indexOf(stopKey);
  const digits = (stop === -1 ? keys : keys.slice(0, stop)).slice(0, KEYPAD_ENTRY_MAX);
  return { digits, words: /\p{L}/u.test(line) };
}
