import { INSTRUMENTS, SCREENING_DISCLAIMER } from '../../../common/instruments';
import { RISK_TIERS } from '../../../common/risk/tiers';
import type { AnonymousResultsResponse } from '../../../common/schemas/campaigns';
import { errorMessage } from '../../api';
import { LoadError } from '../../ui/LoadError';
import { Card, Lead, Page } from '../../ui/Page';
import { tableClassName } from '../../ui/Table';
import { AdminOnly, LoadingStatus } from '../admin/AdminOnly';
import { TIER_LABELS } from '../cases/format';
import { shownText } from '../dashboard/shownFigures';
import { NotFoundScreen } from '../not-found/NotFoundScreen';
import rosterStyles from '../roster/Roster.module.css';
import { CampaignSubpageHeader, useCampaignQuery } from './CampaignSubpage';
import { audienceText } from './CampaignsScreen';
import styles from './Results.module.css';
import { fetchResults, resultsQueryKey } from './resultsApi';

const TITLE = 'Anonymous results';

const FIGURE_TABLE = tableClassName({ cardsBelow: '40rem', labels: 'inline' }, rosterStyles.table);

/** Why a figure may read "Fewer than N", and what is never shown: said on the screen itself. */
export function anonymousResultsNote(threshold: number): string {
  return `This campaign is anonymous: its answers name no one, so for every role a figure over fewer than ${threshold} answers reads “Fewer than ${threshold}” (with some others hidden so it cannot be worked out), and written answers are never shown.`;
}

/**
 * An anonymous campaign's results: how many answered, how many answers each screening level
 * took in and the mean of each 1-5 question. The server hides small groups for every role.
 */
export function ResultsScreen() {
  return (
    <AdminOnly ability="dashboard" title={TITLE} loadingText="Loading the results...">
      <Results />
    </AdminOnly>
  );
}

function Results() {
  const { valid, query } = useCampaignQuery(resultsQueryKey, fetchResults);
  if (!valid) return <NotFoundScreen />;
  return (
    <Page>
      <CampaignSubpageHeader title={TITLE} />
      {query.isPending ? (
        <LoadingStatus>Loading the results...</LoadingStatus>
      ) : query.isError ? (
        <LoadError
          message={errorMessage(query.error, 'The results could not be loaded.')}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <ResultsView data={query.data} />
      )}
    </Page>
  );
}

function ResultsView({ data }: { data: AnonymousResultsResponse }) {
  const { campaign } = data;
  return (
    <>
      <Lead>
        {campaign.template_name} to {audienceText(campaign)}, over every round.
      </Lead>
      <p className={styles.note}>{anonymousResultsNote(data.threshold)}</p>
      <Card className={rosterStyles.card}>
        <p>
          <strong>{data.answered.toLocaleString()}</strong>{' '}
          {data.answered === 1 ? 'student has' : 'students have'} answered.
        </p>
        <section className={styles.section} aria-labelledby="results-tiers">
          <h2 id="results-tiers">Answers by screening level</h2>
          <table className={FIGURE_TABLE}>
            <thead>
              <tr>
                <th scope="col">Screening level</th>
                <th scope="col">Answers</th>
              </tr>
            </thead>
            <tbody>
              {[...RISK_TIERS].reverse().map((tier) => (
                <tr key={tier}>
                  <th scope="row">{TIER_LABELS[tier]}</th>
                  <td data-label="Answers" className={styles.figure}>
                    {shownText(data.tiers[tier], (count) => count.toLocaleString())}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section className={styles.section} aria-labelledby="results-questions">
          <h2 id="results-questions">Mean answer to each 1–5 question</h2>
          {data.questions.length === 0 ? (
            <p className={rosterStyles.empty}>No 1–5 question has been answered yet.</p>
          ) : (
            <table className={FIGURE_TABLE}>
              <thead>
                <tr>
                  <th scope="col">Question</th>
                  <th scope="col">Mean (1–5)</th>
                </tr>
              </thead>
              <tbody>
                {data.questions.map((question) => (
                  <tr key={question.text}>
                    <th scope="row" className={rosterStyles.wrap}>
                      {question.text}
                    </th>
                    <td data-label="Mean (1–5)" className={styles.figure}>
                      {shownText(question.mean, (mean) => (mean === null ? '–' : mean.toFixed(2)))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        {data.instruments.length > 0 && (
          <section className={styles.section} aria-labelledby="results-instruments">
            <h2 id="results-instruments">Screening instruments</h2>
            <p className={styles.note}>Answers in each band, as scored ({SCREENING_DISCLAIMER}).</p>
            {data.instruments.map((instrument) => (
              <InstrumentTable key={instrument.instrument_id} instrument={instrument} />
            ))}
          </section>
        )}
      </Card>
    </>
  );
}

type InstrumentFigures = AnonymousResultsResponse['instruments'][number];

/** One block's bands; a PHQ-2 (GAD-2) that reached its cut point is counted as the form it became. */
function InstrumentTable({ instrument }: { instrument: InstrumentFigures }) {
  return (
    <table className={FIGURE_TABLE}>
      <caption className={styles.caption}>{instrument.name}</caption>
      <thead>
        <tr>
          <th scope="col">Band</th>
          <th scope="col">Answers</th>
        </tr>
      </thead>
      <tbody>
        {instrument.bands.map((band) => (
          <tr key={`${band.scored_as}-${band.band}`}>
            <th scope="row" className={rosterStyles.wrap}>
              {band.scored_as === instrument.instrument_id
                ? band.band
                : `${INSTRUMENTS[band.scored_as].name}: ${band.band}`}
            </th>
            <td data-label="Answers" className={styles.figure}>
              {shownText(band.count, (count) => count.toLocaleString())}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
