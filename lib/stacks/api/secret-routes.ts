/**
 * The management API's Secret routes per permission, as IAM sees them (`execute-api:Invoke` on
 * `…/<stage>/<METHOD>/<path>`, where IAM's `*` also matches `/`). The API function trusts an IAM
 * caller that reached a Secret route with the verb it used (functions/api/aws-event.ts), so these
 * patterns must cover every verb: the function refuses encoded slashes, dot segments, empty
 * segments and trailing slashes, so no other spelling of a Secret path reaches it.
 *
 * Lists (`GET …/secrets`) are not here: they never carry Secret data.
 */
export interface SecretRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
}

const NAMED = '/api/v1/namespaces/*/secrets/*';
const COLLECTION = '/api/v1/namespaces/*/secrets';

export const SECRET_ROUTES: Readonly<Record<'read' | 'write', readonly SecretRoute[]>> = {
  /** get (and the read half of update, patch and delete, which return the object). */
  read: [{ method: 'GET', path: NAMED }],
  /** create, update, patch, delete: responses carry the object, so grant these only with read. */
  write: [
    { method: 'POST', path: COLLECTION },
    { method: 'PUT', path: NAMED },
    { method: 'PATCH', path: NAMED },
    { method: 'DELETE', path: NAMED },
  ],
};

/** Every method on a Secret route other than listing: what an object-only caller is kept from. */
export const ALL_SECRET_ROUTES: readonly SecretRoute[] = [...SECRET_ROUTES.read, ...SECRET_ROUTES.write];
