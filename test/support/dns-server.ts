import dns2 from 'dns2';

const { Packet } = dns2;

/** What the handler reads and writes of dns2's packets (its typings leave out the question type, rcode and TXT data lists). */
interface Query {
  questions: Array<{ name: string; type: number }>;
}
interface Answer {
  header: { rcode: number };
  answers: Array<Record<string, unknown>>;
}

/** Records of a name in the test zone: TXT values (each a list of chunks, or one string) and an alias. */
export interface ZoneRecords {
  txt?: Array<string | string[]>;
  cname?: string;
}

/**
 * A real DNS server on a local UDP port (dns2), answering from a zone the test edits, as a
 * recursive resolver would: a CNAME is answered with the chain and the records at its end.
 * Point DNS_RESOLVERS at `address`.
 */
export class TestDnsServer {
  readonly zone = new Map<string, ZoneRecords>();
  /** Names whose queries are dropped (the lookup times out). */
  readonly silent = new Set<string>();
  /** Asked for names the zone does not hold (e.g. records derived from the app's database). */
  fallback?: (name: string) => Promise<ZoneRecords | undefined>;
  private server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      void this.answer(request, send as unknown as (response: Answer) => void);
    },
  });
  address = '';

  async start(): Promise<this> {
    await this.server.listen({ udp: { port: 0, address: '127.0.0.1' } });
    const { udp } = this.server.addresses() as { udp: { port: number } };
    this.address = `127.0.0.1:${udp.port}`;
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  set(name: string, records: ZoneRecords): void {
    this.zone.set(name.toLowerCase(), records);
  }

  private async answer(request: Query, send: (response: Answer) => void): Promise<void> {
    const response = Packet.createResponseFromRequest(request as never) as unknown as Answer;
    const [question] = request.questions;
    let name = question.name.toLowerCase();
    if (this.silent.has(name)) return;
    let records = this.zone.get(name) ?? (await this.fallback?.(name));
    if (!records) {
      response.header.rcode = 3; // NXDOMAIN
      send(response);
      return;
    }
    for (let hops = 0; records?.cname && hops < 8; hops++) {
      response.answers.push({ name, type: Packet.TYPE.CNAME, class: Packet.CLASS.IN, ttl: 1, domain: records.cname });
      name = records.cname.toLowerCase();
      records = this.zone.get(name);
    }
    if (question.type === Packet.TYPE.TXT) {
      for (const data of records?.txt ?? []) response.answers.push({ name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data });
    }
    send(response);
  }
}
