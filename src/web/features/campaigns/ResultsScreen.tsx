import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { INSTRUMENTS, SCREENING_DISCLAIMER } from '../../../common/instruments';
import { RISK_TIERS } from '../../../common/risk/tiers';
import type { AnonymousResultsResponse } from '../../../common/schemas/campaigns';
import { errorMessage } from '../../api';
import { i18n } from '../../app/i18n';
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

const TITLE = msg`Anonymous results`;

const FIGURE_TABLE = tableClassName({ cardsBelow: '40rem', labels: 'inline' }, rosterStyles.table);

/** Why a figure may read "Fewer than N", and what is never shown: said on the screen itself. */
export function anonymousResultsNote(threshold: number): string {
  return i18n._(
    msg`This campaign is anonymous: its answers name no one, so for every role a figure over fewer than ${threshold} answers reads “Fewer than ${threshold}” (with some others hidden so it cannot be worked out), and written answers are never shown.`,
  );
}

/**
 * An anonymous campaign's results: how many answered, how many answers each screening level
 * took in and the mean of each 1-5 question. The server hides small groups for every role.
 */
export function ResultsScreen() {
  const { t, i18n } = useLingui();
  return (
    <AdminOnly ability="dashboard" title={i18n._(TITLE)} loadingText={t`Loading the results...`}>
      <Results />
    </AdminOnly>
  );
}

function Results() {
  const { t, i18n } = useLingui();
  const { valid, query } = useCampaignQuery(resultsQueryKey, fetchResults);
  if (!valid) return <NotFoundScreen />;
  return (
    <Page>
      <CampaignSubpageHeader title={i18n._(TITLE)} />
      {query.isPending ? (
        <LoadingStatus>
          <Trans>Loading the results...</Trans>
        </LoadingStatus>
      ) : query.isError ? (
        <LoadError
          message={errorMessage(query.error, t`The results could not be loaded.`)}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <ResultsView data={query.data} />
      )}
    </Page>
  );
}

function ResultsView({ data }: { data: AnonymousResultsResponse }) {
  const { t, i18n } = useLingui();
  const { campaign } = data;
  const template = campaign.template_name;
  const audience = audienceText(campaign);
  const answered = data.answered.toLocaleString(i18n.locale);
  const count = (value: number) => value.toLocaleString(i18n.locale);
  return (
    <>
      <Lead>
        <Trans>
          {template} to {audience}, over every round.
        </Trans>
      </Lead>
      <p className={styles.note}>{anonymousResultsNote(data.threshold)}</p>
      <Card className={rosterStyles.card}>
        <p>
          {data.answered === 1 ? (
            <Trans>
              <strong>{answered}</strong> student has answered.
            </Trans>
          ) : (
            <Trans>
              <strong>{answered}</strong> students have answered.
            </Trans>
          )}
        </p>
        <section className={styles.section} aria-labelledby="results-tiers">
          <h2 id="results-tiers">
            <Trans>Answers by screening level</Trans>
          </h2>
          <table className={FIGURE_TABLE}>
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Screening level</Trans>
                </th>
                <th scope="col">
                  <Trans>Answers</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {[...RISK_TIERS].reverse().map((tier) => (
                <tr key={tier}>
                  <th scope="row">{TIER_LABELS[tier]}</th>
                  <td data-label={t`Answers`} className={styles.figure}>
                    {shownText(data.tiers[tier], count)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section className={styles.section} aria-labelledby="results-questions">
          <h2 id="results-questions">
            <Trans>Mean answer to each 1–5 question</Trans>
          </h2>
          {data.questions.length === 0 ? (
            <p className={rosterStyles.empty}>
              <Trans>No 1–5 question has been answered yet.</Trans>
            </p>
          ) : (
            <table className={FIGURE_TABLE}>
              <thead>
                <tr>
                  <th scope="col">
                    <Trans>Question</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Mean (1–5)</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.questions.map((question) => (
                  <tr key={question.text}>
                    <th scope="row" className={rosterStyles.wrap}>
                      {question.text}
                    </th>
                    <td data-label={t`Mean (1–5)`} className={styles.figure}>
                      {shownText(question.mean, (mean) =>
                        mean === null
                          ? '–'
                          : mean.toLocaleString(i18n.locale, {
                              minimumFractionDigits: 2,
                              maximumFractionDigits: 2,
                            }),
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        {data.instruments.length > 0 && (
          <section className={styles.section} aria-labelledby="results-instruments">
            <h2 id="results-instruments">
              <Trans>Screening instruments</Trans>
            </h2>
            <p className={styles.note}>
              <Trans>Answers in each band, as scored ({SCREENING_DISCLAIMER}).</Trans>
            </p>
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
  const { t, i18n } = useLingui();
  return (
    <table className={FIGURE_TABLE}>
      <caption className={styles.caption}>{instrument.name}</caption>
      <thead>
        <tr>
          <th scope="col">
            <Trans>Band</Trans>
          </th>
          <th scope="col">
            <Trans>Answers</Trans>
          </th>
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
            <td data-label={t`Answers`} className={styles.figure}>
              {shownText(band.count, (count) => count.toLocaleString(i18n.locale))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
