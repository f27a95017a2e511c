import styles from './Table.module.css';

interface TableLookProps {
  /** The width below which each row becomes a card (Table.module.css). */
  cardsBelow: '40rem' | '48rem';
  /** Where a card shows each cell's data-label: above the value, or before it with a colon. */
  labels: 'above' | 'inline';
}

/**
 * The class list of a staff screen's data table: the shared look (Table.module.css), then the
 * screen's own class, which tunes it with the custom properties listed there.
 */
export function tableClassName({ cardsBelow, labels }: TableLookProps, screenClass?: string): string {
  return [
    styles.table,
    cardsBelow === '40rem' ? styles.cardsBelow40rem : styles.cardsBelow48rem,
    labels === 'above' ? styles.labelsAbove : styles.labelsInline,
    screenClass,
  ]
    .filter(Boolean)
    .join(' ');
}
