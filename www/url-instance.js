// A loaded instance in the address: its SPEC §3 JSON (as the core writes
// it) compressed with the browser's CompressionStream('deflate-raw') and
// written base64url under `instance=`, as long as the whole address stays
// within URL_LIMIT characters; above that the page says in one line that
// the link cannot carry the instance.

/** The longest address the page writes with an instance in it (characters). */
export const URL_LIMIT = 2000;

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url');
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The `instance=` value for an instance's JSON text. */
export async function encodeInstance(json) {
  return toBase64Url(await pipe(new TextEncoder().encode(json), new CompressionStream('deflate-raw')));
}

/**
 * Inflates `bytes`, stopping as soon as more than `maxBytes` came out: a
 * short address can inflate a thousandfold (deflate's longest matches), so
 * the page never holds more than its text limit of an address's instance.
 * Returns null past the limit.
 */
async function inflateAtMost(bytes, maxBytes) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return new Blob(chunks).arrayBuffer();
}

/**
 * The instance JSON text of an `instance=` value, at most `maxBytes` of it
 * (the core's text limit for the page); throws a readable error on a bad
 * one or one that inflates past the limit.
 */
export async function decodeInstance(value, maxBytes) {
  let bytes;
  try {
    bytes = await inflateAtMost(fromBase64Url(value), maxBytes);
  } catch (e) {
    throw new Error('it is not a compressed instance (base64url of deflate-raw JSON)');
  }
  if (bytes === null) {
    throw new Error(`it inflates to more than ${maxBytes} bytes, the page's limit for instance text`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (e) {
    throw new Error('it is not a compressed instance (base64url of deflate-raw JSON)');
  }
}
