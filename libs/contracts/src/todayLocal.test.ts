import { todayLocal } from './formatting';

/** 10 March, 22:30 in New York: 11 March already in UTC. */
const newYorkEvening = {
  getFullYear: () => 2026,
  getMonth: () => 2,
  getDate: () => 10,
  toISOString: () => '2026-03-11T03:30:00.000Z',
} as Date;

it("is the user's calendar day, not tomorrow in the evening west of Greenwich (a receipt date is never pre-filled in the future)", () => {
  expect(todayLocal(newYorkEvening)).toBe('2026-03-10');
  expect(todayLocal(new Date(2026, 0, 5, 0, 30))).toBe('2026-01-05');
});
