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
  useDocumentTitle(pageTitle('Demo Survey'));
  const [answers, setAnswers] = useState<Record<string, string>>({});

  return (
    <Page width="medium">
      <p className={styles.banner}>
        <span className={styles.bannerIcon} aria-hidden="true">
          i
        </span>
        Demo Survey - Log in to submit a real wellness check.
      </p>
      <Card>
        <h1>Student Wellness Check</h1>
        <Lead>A preview of the check-in students take. Answers in this demo are not saved or sent.</Lead>
        <form className={styles.form} onSubmit={preventSubmission} aria-label="Demo wellness survey">
          <div className={styles.identity}>
            <TextField label="Full Name" name="name" autoComplete="name" />
            <TextField label="School Email" name="email" type="email" autoComplete="email" />
          </div>
          {DEMO_QUESTIONS.map((question, index) => (
            <div key={question.id} className={styles.question}>
              <ChoiceGroup
                name={question.id}
                legend={
                  <>
                    <span className={styles.questionNumber}>Question {index + 1}</span>
                    {question.text}
                  </>
                }
                choices={question.choices}
                value={answers[question.id] ?? ''}
                onChange={(value) => setAnswers((current) => ({ ...current, [question.id]: value }))}
              />
            </div>
          ))}
          <div className={styles.submitArea}>
            <Button type="submit" disabled aria-describedby="demo-submit-note">
              Submit
            </Button>
            <p id="demo-submit-note" className={styles.submitNote}>
              The demo cannot be submitted. Log in to take a real wellness check.
            </p>
            <ButtonLink variant="secondary" to="/login/">
              Log in to take the real check-in
            </ButtonLink>
          </div>
        </form>
        <div className={styles.support}>
          <p>
            <strong>Need to talk to someone now?</strong> Call or text 988 (Suicide &amp; Crisis Lifeline), or
            text HOME to 741741. In an emergency, call 911.
          </p>
        </div>
      </Card>
    </Page>
  );
}
