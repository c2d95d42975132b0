import { z } from 'zod';

/**
 * A cloud event on a kind's queue (an EventBridge rule's input transformer writes it, see
 * lib/stacks/events/provider-event-rules.ts). It names no object: the kind's reconciler maps it
 * to the objects it concerns, which are then enqueued like any other change.
 */
export const CloudEventSchema = z.object({
  source: z.string(),
  detailType: z.string(),
  region: z.string(),
  resources: z.array(z.string()).optional(),
  detail: z.record(z.string(), z.unknown()),
});

export const CloudEventMessageSchema = z.object({
  v: z.literal(1),
  /**
   * `<group>/<Kind>` whose reconciler maps the event: set by the rule on the shared work queue,
   * where the dispatcher routes by it (docs/adr/0110); absent on a kind's own queue.
   */
  kind: z.string().min(1).optional(),
  cloudEvent: CloudEventSchema,
});

export type CloudEvent = z.infer<typeof CloudEventSchema>;
export type CloudEventMessage = z.infer<typeof CloudEventMessageSchema>;

export function parseCloudEventMessage(body: string): CloudEvent | undefined {
  return parseCloudEventEnvelope(body)?.cloudEvent;
}

/** The whole message, with the kind the shared work queue routes it by. */
export function parseCloudEventEnvelope(body: string): CloudEventMessage | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  const parsed = CloudEventMessageSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
