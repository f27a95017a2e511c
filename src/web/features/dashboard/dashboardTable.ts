import { tableClassName } from '../../ui/Table';
import styles from './Dashboard.module.css';

/** The dashboard's tables of students: one card per student on a phone. */
export const DASHBOARD_TABLE = tableClassName({ cardsBelow: '40rem', labels: 'above' }, styles.table);
