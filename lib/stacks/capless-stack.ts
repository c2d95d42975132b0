import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { CaplessControlPlane } from './capless-control-plane.js';
import type { CaplessControlPlaneProps } from './props/control-plane-props.js';

export interface CaplessStackProps extends StackProps {
  /** @default the CaplessControlPlane defaults (IAM auth, 10-minute resync, one-month logs) */
  readonly controlPlane?: CaplessControlPlaneProps;
}

/** The deployable capless stack: one CaplessControlPlane and its outputs. */
export class CaplessStack extends Stack {
  readonly controlPlane: CaplessControlPlane;

  constructor(scope: Construct, id: string, props: CaplessStackProps = {}) {
    super(scope, id, props);
    this.controlPlane = new CaplessControlPlane(this, 'ControlPlane', props.controlPlane);
    new CfnOutput(this, 'ApiUrl', { value: this.controlPlane.api.url, description: 'management API base URL' });
    new CfnOutput(this, 'WatchUrl', { value: this.controlPlane.watches.url.url, description: 'streaming watch endpoint (?watch=true), SigV4 for the lambda service (ADR 0080)' });
    const { frontDoor } = this.controlPlane;
    if (frontDoor) {
      new CfnOutput(this, 'ApiFrontDoorUrl', { value: frontDoor.url, description: "kubectl's server: the API and its watches on one host, bearer token (ADR 0125)" });
    }
    new CfnOutput(this, 'TableName', { value: this.controlPlane.objects.tableName, description: 'object table' });
  }
}
