import { gs1CheckDigit, hasValidCheckDigit } from './check-digit';
import { encodeValue, humanReadable, keyLevels, keyPath, parseKeyPath, queryParameterProblem } from './digital-link-key';

describe('GS1 check digit (mod 10)', () => {
  it.each([
    ['0950600013435', 2],
    ['950600013435', 2],
    ['10614141234567890', 8],
    ['03600029145', 2],
  ])('of %s is %d', (digits, check) => expect(gs1CheckDigit(digits)).toBe(check));

  it('checks a digit inside a value (GRAI: position 14)', () => {
    expect(hasValidCheckDigit('09506000134352ABC', 14)).toBe(true);
    expect(hasValidCheckDigit('09506000134353ABC', 14)).toBe(false);
  });
});

describe('parseKeyPath', () => {
  it.each([
    ['/01/09506000134352', '/01/09506000134352'],
    ['/01/09506000134352/', '/01/09506000134352'],
    ['/01/9506000134352', '/01/09506000134352'],
    ['/01/036000291452', '/01/00036000291452'],
    ['/01/96385074', '/01/00000096385074'],
    ['/01/09506000134352/10/LOT42', '/01/09506000134352/10/LOT42'],
    ['/01/09506000134352/22/2A/10/ABC/21/S%2F1', '/01/09506000134352/22/2A/10/ABC/21/S%2F1'],
    ['/01/09506000134352/21/x!y', '/01/09506000134352/21/x%21y'],
    ['/gtin/09506000134352/lot/L1', '/01/09506000134352/10/L1'],
    ['/00/106141412345678908', '/00/106141412345678908'],
    ['/414/9506000134376/254/01', '/414/9506000134376/254/01'],
    ['/8004/0950600013430000001', '/8004/0950600013430000001'],
    ['/8003/09506000134352A1', '/8003/09506000134352A1'],
  ])('%s reads as %s', (path, canonical) => {
    const parsed = parseKeyPath(path);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(keyPath(parsed.value)).toBe(canonical);
  });

  it.each([
    ['/01/09506000134353', /check digit/],
    ['/01/0950600013435', /check digit/],
    ['/01/095060001343521', /format/],
    ['/01/0950600013435X', /format/],
    ['/01/09506000134352/17/271231', /not a key qualifier/],
    ['/01/09506000134352/21/S/10/L', /order/],
    ['/01/09506000134352/10/A/10/B', /order/],
    ['/01/09506000134352/10', /pairs/],
    ['/01', /pairs/],
    ['/', /pairs/],
    ['/99/12', /not a GS1 primary key/],
    ['/01/09506000134352/10/' + 'L'.repeat(21), /format/],
    ['/01/09506000134352/10/%E0%A4%A', /percent-encoded/],
    ['/01/09506000134352/21/%C3%A9', /format/],
    ['/01/09506000134352/21/a%20b', /format/],
    ['/00/106141412345678909', /check digit/],
    ['/' + '01/09506000134352/'.repeat(40), /too long/],
  ])('%s is refused (%s)', (path, message) => {
    const parsed = parseKeyPath(path);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(message);
  });

  it('lists the levels of a key, most specific first', () => {
    const parsed = parseKeyPath('/01/09506000134352/10/L/21/S');
    if (!parsed.ok) throw new Error(parsed.message);
    expect(keyLevels(parsed.value).map(keyPath)).toEqual(['/01/09506000134352/10/L/21/S', '/01/09506000134352/10/L', '/01/09506000134352']);
    expect(humanReadable(parsed.value)).toBe('(01) 09506000134352 (10) L (21) S');
  });

  it('encodes what Digital Link encodes', () => expect(encodeValue("a/b!c'(d)*e~f g-h.i_j")).toBe('a%2Fb%21c%27%28d%29%2Ae%7Ef%20g-h.i_j'));
});

describe('query parameters', () => {
  it.each([
    ['17', '271231', null],
    ['17', '270200', null],
    ['17', '270229', /date/],
    ['17', '281331', /date/],
    ['17', '27123', /format/],
    ['3103', '000450', null],
    ['10', 'LOT', /path/],
    ['01', '09506000134352', /path/],
    ['foo', 'bar', null],
    ['linkType', 'gs1:pip', null],
  ])('%s=%s', (name, value, problem) => {
    const found = queryParameterProblem(name, value);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });
});
