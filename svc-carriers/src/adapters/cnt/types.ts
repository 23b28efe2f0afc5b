/**
 * 17TRACK Tracking API v2.2 as it answers (vendor-apis §6a; asset.17track.net/api/document/v2.2_en):
 * only the fields we send or read. Every call is POST JSON with the header `17token`.
 *
 * Error codes ([guess] from the v2.2 error table as client libraries copy it; only their meaning matters
 * to us, the words reach the user as 17TRACK wrote them):
 * -18010002 invalid access key (HTTP 401), -18010012 malformed number, -18010014 more than 40 numbers,
 * -18019901 already registered, -18019902 not registered, -18010009 too many requests (HTTP 429).
 */
export const CNT_CODES = {
  invalidKey: -18010002,
  badNumber: -18010012,
  tooMany: -18010014,
  alreadyRegistered: -18019901,
  notRegistered: -18019902,
  rateLimited: -18010009,
} as const;

export interface CntError {
  code: number;
  message: string;
}

/** `{code: 0, data}` on success; a refusal of the whole call has a non-zero code and data.errors. */
export interface CntReply<T> {
  code: number;
  data: T & { errors?: CntError[] };
}

/** POST /track/v2.2/register: at most 40 per call. */
export interface CntRegisterItem {
  number: string;
  /** Ours: the consolidation warehouse's alias (see mapping.ts cityOfTag). */
  tag?: string;
  carrier?: number;
  auto_detection?: boolean;
}

export interface CntRejected {
  number: string;
  error: CntError;
}

export interface CntRegisterData {
  accepted: Array<{ number: string; carrier?: number; tag?: string | null }>;
  rejected: CntRejected[];
}

export interface CntEvent {
  /** Local time with the place's offset ('2026-11-20T09:15:00+08:00'). */
  time_iso: string;
  time_utc?: string;
  description: string;
  location: string | null;
  stage?: string | null;
}

export interface CntTrackInfo {
  latest_status: { status: string; sub_status?: string | null };
  latest_event: CntEvent | null;
  tracking: { providers: Array<{ provider?: { key: number; name: string }; events: CntEvent[] }> };
}

export interface CntTracked {
  number: string;
  carrier?: number;
  tag?: string | null;
  track_info: CntTrackInfo;
}

/** POST /track/v2.2/gettrackinfo with [{number}] */
export interface CntTrackData {
  accepted: CntTracked[];
  rejected: CntRejected[];
}

/** What 17TRACK POSTs to the webhook URL, signed in the header `sign`. */
export interface CntPush {
  event: 'TRACKING_UPDATED' | 'TRACKING_STOPPED';
  data: CntTracked & { param?: string | null };
}
