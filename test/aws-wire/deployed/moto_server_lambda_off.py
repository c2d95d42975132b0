"""moto's server with Lambda event source mappings that are listed but never fire.

moto fires an event source mapping itself: on every SendMessage to a mapped queue it receives a
batch and invokes the function (in Docker), and on every write to a table with a mapped stream it
invokes the function and, if that "succeeds", empties the stream shard. Without Docker that drains
the stream and raises receive counts behind the test's back. Its only switch,
`{"lambda": {"use_docker": false}}`, swaps in a Lambda backend that reports every invocation as a
success (so queues are drained) and does not see functions created through CloudFormation.

So this launcher keeps moto's mappings as data (CreateEventSourceMapping, ListEventSourceMappings
and CloudFormation work unchanged) and detaches them from the queue or table they name, which is
the only place moto reads them to fire. The deployed-stack runtime plays Lambda's part instead.

With CAPLESS_MOTO_ENFORCE_IAM=sqs (a comma-separated list of moto service names) moto checks
the signature and the caller's IAM policies on every request to those services and on no other:
moto's own switch (INITIAL_NO_AUTH_ACTION_COUNT) turns enforcement on for every service, and its
evaluation of policy conditions (DynamoDB's dynamodb:LeadingKeys, for one) does not follow AWS.

Usage: python3 moto_server_lambda_off.py -H 127.0.0.1 -p PORT
"""

import os
import sys

from moto import settings
from moto.core.authorization import ActionAuthenticatorMixin

from moto.awslambda import models as lambda_models
from moto.dynamodb.models import dynamodb_backends
from moto.sqs.models import sqs_backends

_create = lambda_models.LambdaBackend.create_event_source_mapping


def _create_listed_only(self, spec):
    mapping = _create(self, spec)
    for queue in sqs_backends[self.account_id][self.region_name].queues.values():
        if queue.lambda_event_source_mappings.get(mapping.function_arn) is mapping:
            del queue.lambda_event_source_mappings[mapping.function_arn]
    for table in dynamodb_backends[self.account_id][self.region_name].tables.values():
        if table.lambda_event_source_mappings.get(mapping.function_arn) is mapping:
            del table.lambda_event_source_mappings[mapping.function_arn]
    return mapping


lambda_models.LambdaBackend.create_event_source_mapping = _create_listed_only

_ENFORCED = {name.strip() for name in os.environ.get("CAPLESS_MOTO_ENFORCE_IAM", "").split(",") if name.strip()}
if _ENFORCED:
    _authorize = ActionAuthenticatorMixin._authenticate_and_authorize_action
    # Requests to enforced services skip moto's free-request budget; all others skip the check.
    settings.INITIAL_NO_AUTH_ACTION_COUNT = 0

    # AWS authorizes a batch action with its single action's permission (SendMessageBatch needs
    # sqs:SendMessage: https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-api-permissions-reference.html);
    # moto asks for sqs:SendMessageBatch, which no policy grants.
    _PERMISSION_OF = {
        "SendMessageBatch": "SendMessage",
        "DeleteMessageBatch": "DeleteMessage",
        "ChangeMessageVisibilityBatch": "ChangeMessageVisibility",
    }

    def _authorize_enforced_only(self, iam_request_cls, resource="*"):
        if getattr(self, "service_name", None) not in _ENFORCED:
            return

        class _Request(iam_request_cls):
            def __init__(self, *args, **kwargs):
                action = kwargs.get("action")
                name = action[0] if isinstance(action, list) and action else action
                if self_service == "sqs" and isinstance(name, str) and name in _PERMISSION_OF:
                    kwargs["action"] = _PERMISSION_OF[name]
                super().__init__(*args, **kwargs)

        self_service = self.service_name
        _authorize(self, _Request, resource)

    ActionAuthenticatorMixin._authenticate_and_authorize_action = _authorize_enforced_only

if __name__ == "__main__":
    from moto.server import main

    main(sys.argv[1:])
