import { chunkEnds } from './outbox';

describe('chunkEnds: a relay batch in produce requests of at most so many bytes', () => {
  it('keeps consecutive events together up to the limit, in order', () => {
    expect(chunkEnds(['aaaa', 'bbbb', 'cccc', 'dd'], 8)).toEqual([2, 4]);
    expect(chunkEnds(['aaaa', 'bbbb'], 100)).toEqual([2]);
    expect(chunkEnds([], 8)).toEqual([]);
  });

  it('counts bytes, not characters (Cyrillic takes two bytes a letter)', () => {
    // 'заказ' is 5 letters and 10 bytes: two do not fit in 16 bytes
    expect(chunkEnds(['заказ', 'заказ'], 16)).toEqual([1, 2]);
    expect(chunkEnds(['order', 'order'], 16)).toEqual([2]);
  });

  it('sends an event larger than the limit alone', () => {
    expect(chunkEnds(['a', 'x'.repeat(20), 'b'], 8)).toEqual([1, 2, 3]);
  });
});
