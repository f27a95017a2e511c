import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useState } from 'react';
import { pageTitle } from '../../config';
import { Button, ButtonLink } from '../../ui/Button';
import { ChoiceGroup, TextField } from '../../ui/Field';
import { Card, Lead, Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import styles from './DemoSurvey.module.css';
import { DEMO_QUESTIONS } from './demoQuestions';

/** Nothing is ever sent: the demo only shows what a check-in looks like. */
function preventSubmission(event: FormEvent) {
  event.preventDefault();
}

export function DemoSurveyScreen() {
  const { t, i18n } = useLingui();
  useDocumentTitle(pageTitle(t`Demo Survey`));
  const [answers, setAnswers] = useState<Record<string, string>>({});

  return (
    <Page width="medium">
      <p className={styles.banner}>
        <span className={styles.bannerIcon} aria-hidden="true">
          i
        </span>
        <Trans>Demo Survey - Log in to submit a real wellness check.</Trans>
      </p>
      <Card>
        <h1>
          <Trans>Student Wellness Check</Trans>
        </h1>
        <Lead>
          <Trans>A preview of the check-in students take. Answers in this demo are not saved or sent.</Trans>
        </Lead>
        <form className={styles.form} onSubmit={preventSubmission} aria-label={t`Demo wellness survey`}>
          <div className={styles.identity}>
            <TextField label={t`Full Name`} name="name" autoComplete="name" />
            <TextField label={t`School Email`} name="email" type="email" autoComplete="email" />
          </div>
          {DEMO_QUESTIONS.map((question, index) => {
            const number = index + 1;
            return (
              <div key={question.id} className={styles.question}>
                <ChoiceGroup
                  name={question.id}
                  legend={
                    <>
                      <span className={styles.questionNumber}>
                        <Trans>Question {number}</Trans>
                      </span>
                      {i18n._(question.text)}
                    </>
                  }
                  choices={question.choices.map(({ label, ...choice }) => ({
                    ...choice,
                    label: i18n._(label),
                  }))}
                  value={answers[question.id] ?? ''}
                  onChange={(value) => setAnswers((current) => ({ ...current, [question.id]: value }))}
                />
              </div>
            );
          })}
          <div className={styles.submitArea}>
            <Button type="submit" disabled aria-describedby="demo-submit-note">
              <Trans>Submit</Trans>
            </Button>
            <p id="demo-submit-note" className={styles.submitNote}>
              <Trans>The demo cannot be submitted. Log in to take a real wellness check.</Trans>
            </p>
            <ButtonLink variant="secondary" to="/login/">
              <Trans>Log in to take the real check-in</Trans>
            </ButtonLink>
          </div>
        </form>
        <div className={styles.support}>
          <p>
            <Trans>
              <strong>Need to talk to someone now?</strong> Call or text 988 (Suicide &amp; Crisis Lifeline),
              or text HOME to 741741. In an emergency, call 911.
            </Trans>
          </p>
        </div>
      </Card>
    </Page>
  );
}
