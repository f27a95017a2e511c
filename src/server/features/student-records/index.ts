// The front door of student-records: all that the rest of the server may use of it (test/architecture).
export { studentRecordRoutes } from './routes';
