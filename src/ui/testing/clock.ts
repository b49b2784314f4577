/** 2026-03-02 09:00:00 UTC: every time the screen fixtures show. */
export const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
