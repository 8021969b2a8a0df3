import { describe, expect, it } from 'vitest';
import { countsWhileOpen, isEventStream } from '../../../../src/browser/page/open-requests.js';

describe('countsWhileOpen', () => {
  it.each(['websocket', 'eventsource', 'media', 'ping', 'WebSocket', 'Ping'])('never counts a stream (%s)', (type) => {
    expect(countsWhileOpen(type)).toBe(false);
  });

  it.each(['document', 'script', 'stylesheet', 'image', 'font', 'xhr', 'fetch', 'other', 'texttrack', 'manifest'])(
    'counts an ordinary request (%s) while it is open',
    (type) => {
      expect(countsWhileOpen(type)).toBe(true);
    },
  );
});

describe('isEventStream', () => {
  it.each(['text/event-stream', 'text/event-stream; charset=utf-8', ' Text/Event-Stream '])('knows an event stream by %j', (type) => {
    expect(isEventStream(type)).toBe(true);
  });

  it.each([undefined, '', 'application/json', 'text/plain', 'application/x-ndjson', 'text/event-streams'])('%j is not one', (type) => {
    expect(isEventStream(type)).toBe(false);
  });
});
