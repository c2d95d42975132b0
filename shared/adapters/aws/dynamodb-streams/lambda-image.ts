import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue as LambdaAttributeValue } from 'aws-lambda';

export type LambdaImage = Record<string, LambdaAttributeValue>;

/**
 * An SDK AttributeValue (DynamoDB or DynamoDB Streams client) in the shape Lambda's stream
 * events carry (binary as base64). Unknown members are dropped.
 */
export function toLambdaAttributeValue(value: SdkAttributeValue): LambdaAttributeValue | undefined {
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: value.NULL };
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.SS !== undefined) return { SS: value.SS };
  if (value.NS !== undefined) return { NS: value.NS };
  if (value.BS !== undefined) return { BS: value.BS.map((b) => Buffer.from(b).toString('base64')) };
  if (value.L !== undefined) {
    return { L: value.L.map(toLambdaAttributeValue).filter((v): v is LambdaAttributeValue => v !== undefined) };
  }
  if (value.M !== undefined) return { M: toLambdaImage(value.M) };
  return undefined;
}

export function toLambdaImage(item: Record<string, SdkAttributeValue>): LambdaImage {
  const image: LambdaImage = {};
  for (const [name, value] of Object.entries(item)) {
    const converted = toLambdaAttributeValue(value);
    if (converted) image[name] = converted;
  }
  return image;
}
