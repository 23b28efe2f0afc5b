import { cityOfTag, toTrackedWaybill } from './mapping';

describe('the registration tag names the consolidation warehouse', () => {
  it.each([
    ['guangzhou-1', 'Guangzhou'],
    ['Guangzhou_main', 'Guangzhou'],
    ['YIWU2', 'Yiwu'],
    ['  foshan ', 'Foshan'],
    ['иу-склад', 'Иу'],
  ])('%s → %s', (tag, city) => expect(cityOfTag(tag)).toBe(city));

  it('no tag, no city', () => {
    expect(cityOfTag('')).toBeNull();
    expect(cityOfTag(null)).toBeNull();
    expect(cityOfTag('-1')).toBeNull();
  });
});

describe('a 17TRACK answer as the position screen reads it', () => {
  it('events newest first whatever order the provider gave, status from latest_status', () => {
    const tracked = toTrackedWaybill({
      number: 'YT1234567890123',
      tag: 'guangzhou-1',
      track_info: {
        latest_status: { status: 'InTransit' },
        latest_event: null,
        tracking: {
          providers: [
            {
              events: [
                { time_iso: '2026-11-20T09:00:00+08:00', description: 'Picked up', location: 'Shenzhen' },
                { time_iso: '2026-11-21T18:30:00+08:00', description: 'Arrived', location: 'Guangzhou' },
                { time_iso: '2026-11-21T08:00:00+08:00', description: 'Departed', location: '' },
              ],
            },
          ],
        },
      },
    });
    expect(tracked).toEqual({
      waybill: 'YT1234567890123',
      status: 'InTransit',
      tag: 'guangzhou-1',
      events: [
        { at: '2026-11-21T18:30:00+08:00', text: 'Arrived', city: 'Guangzhou' },
        { at: '2026-11-21T08:00:00+08:00', text: 'Departed', city: null },
        { at: '2026-11-20T09:00:00+08:00', text: 'Picked up', city: 'Shenzhen' },
      ],
    });
  });

  it('no providers yet: no events', () => {
    const tracked = toTrackedWaybill({
      number: 'YT1234567890124',
      track_info: { latest_status: { status: 'NotFound' }, latest_event: null, tracking: { providers: [] } },
    });
    expect(tracked).toEqual({ waybill: 'YT1234567890124', status: 'NotFound', tag: null, events: [] });
  });
});
