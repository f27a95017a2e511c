import * as endpoints from '../../../common/endpoints/sso';
import { api } from '../../api';

/** Whether this address signs in through its institution, and where that sign-in starts. */
export function discoverSso(email: string) {
  return api.call(endpoints.discoverSso, { body: { email } });
}
