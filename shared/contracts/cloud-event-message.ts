import { z } from 'zod';

/**
 * A cloud event on a kind's queue (an EventBridge rule's input transformer writes it, see
 * lib/stacks/events/provider-event-rules.ts). It names no object: the kind's reconciler maps it
 * to the objects it concerns, which are then enqueued like any other change.
 */
export const CloudEventMessageSchema = z.object({
  v: z.literal(1),
  cloudEvent: z.object({
    source: z.string(),
    detailType: z.string(),
    region: z.string(),
    resources: z.array(z.string()).optional(),
    detail: z.record(z.string(), z.unknown()),
  }),
});

export type CloudEvent = z.infer<typeof CloudEventMessageSchema>['cloudEvent'];

export function parseCloudEventMessage(body: string): CloudEvent | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  const parsed = CloudEventMessageSchema.safeParse(json);
  return parsed.success ? parsed.data.cloudEvent : undefined;
}
