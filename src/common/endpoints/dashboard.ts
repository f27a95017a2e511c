import {
  DashboardData,
  DashboardEventStream,
  FlaggedPage,
  FlaggedPageQuery,
  InstrumentBandMonths,
} from '../schemas/dashboard';
import { StudentDataExport } from '../schemas/identity';
import { endpoint } from './endpoint';

const tags = ['dashboard'];

export const getDashboard = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/dashboard/',
  summary: "The staff member's institution dashboard; a viewer's has numbers and no names",
  tags,
  response: { status: 200, schema: DashboardData },
  errors: [401, 403],
  access: { staff: 'dashboard' },
});

export const listFlaggedStudents = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/dashboard/flagged/',
  summary: 'A page of flagged students, in dashboard order (urgent first, then newest)',
  tags,
  query: FlaggedPageQuery,
  response: { status: 200, schema: FlaggedPage },
  errors: [400, 401, 403],
  access: { staff: 'student_identities' },
});

export const streamDashboard = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/dashboard/events/',
  summary: 'Server-Sent Events: a "dashboard" event with fresh numbers now and after every change',
  tags,
  response: { status: 200, schema: DashboardEventStream, type: 'text/event-stream' },
  errors: [401, 403, 429],
  access: { staff: 'dashboard' },
});

export const exportDashboardCsv = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/dashboard/export.csv',
  summary: "The institution's submissions as CSV, one row per submission and one column per question",
  tags,
  response: { status: 200, schema: StudentDataExport, type: 'text/csv' },
  errors: [401, 403, 429],
  access: { staff: 'export' },
});

export const getInstrumentBands = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/dashboard/instruments/',
  summary:
    'Per validated instrument and month, how many students fell in each band, and the mean total with its change (numbers only)',
  tags,
  response: { status: 200, schema: InstrumentBandMonths },
  errors: [401, 403],
  access: { staff: 'dashboard' },
});
