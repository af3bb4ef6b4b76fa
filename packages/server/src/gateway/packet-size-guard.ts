/**
 * Follows the MQTT fixed headers of a byte stream and reports the first packet whose declared
 * remaining length exceeds a limit. Aedes buffers a whole packet before any hook sees it, so
 * without this a client could make the broker hold up to 256 MB per connection — before it has
 * even authenticated.
 */
export class MqttPacketSizeGuard {
  private state: 'header' | 'length' | 'body' = 'header';
  private length = 0;
  private multiplier = 1;
  private lengthBytes = 0;
  private remaining = 0;
  private violated = false;

  constructor(private readonly maxRemainingLength: number) {}

  /** Feeds the next chunk; false once a packet is too large (or its length is malformed). */
  push(chunk: Uint8Array): boolean {
    let index = 0;
    while (!this.violated && index < chunk.length) {
      switch (this.state) {
        case 'header':
          index += 1;
          this.state = 'length';
          this.length = 0;
          this.multiplier = 1;
          this.lengthBytes = 0;
          break;
        case 'length': {
          const byte = chunk[index] ?? 0;
          index += 1;
          this.length += (byte & 0x7f) * this.multiplier;
          this.multiplier *= 128;
          this.lengthBytes += 1;
          if (this.length > this.maxRemainingLength) this.violated = true;
          else if (byte & 0x80) {
            // The remaining length has at most four bytes [MQTT-2.2.3].
            if (this.lengthBytes === 4) this.violated = true;
          } else {
            this.remaining = this.length;
            this.state = this.remaining > 0 ? 'body' : 'header';
          }
          break;
        }
        case 'body': {
          const take = Math.min(this.remaining, chunk.length - index);
          index += take;
          this.remaining -= take;
          if (this.remaining === 0) this.state = 'header';
          break;
        }
      }
    }
    return !this.violated;
  }
}
