import type { PositionPhotoReviewParams, TimelineEntry } from '@caravan/contracts';
import { baseApi } from '@caravan/ui-kit';

/** The order's timeline (issue 19): refetched whenever the open card hears its order, positions or chat change. */
export const timelineApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    orderTimeline: build.query<TimelineEntry[], number>({
      query: (id) => ({ method: 'client_order_timeline', params: { id } }),
      providesTags: [
        { type: 'Entity', id: 'client_order' },
        { type: 'Entity', id: 'client_order_position' },
        // a message sent from the card's chat box
        { type: 'Entity', id: 'chat_message' },
      ],
    }),
    /** The client's answer to a position's warehouse photos; the reply is the words to show. */
    photoReview: build.mutation<string, PositionPhotoReviewParams>({
      query: (params) => ({ method: 'client_order_position_photo_review', params }),
      invalidatesTags: [
        { type: 'Entity', id: 'client_order' },
        { type: 'Entity', id: 'client_order_position' },
      ],
    }),
  }),
});

export const { useOrderTimelineQuery, usePhotoReviewMutation } = timelineApi;
