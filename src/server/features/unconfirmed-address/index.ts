// The front door of unconfirmed-address: all that the rest of the server may use of it (test/architecture).
export { ADDRESS_UNCONFIRMED_MESSAGE, passwordOpensPendingRegistration } from './pending';
export { unconfirmedAddressRoutes } from './routes';
