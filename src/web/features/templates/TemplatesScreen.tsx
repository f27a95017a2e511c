import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { TemplateSummary } from '../../../common/schemas/templates';
import { Button, ButtonLink } from '../../ui/Button';
import { type Confirmation, ConfirmDialog } from '../../ui/ConfirmDialog';
import { Flash, type FlashTone, useFlash } from '../../ui/Flash';
import { LoadError } from '../../ui/LoadError';
import { Lead, Page } from '../../ui/Page';
import { AdminOnly, useLoginRedirect } from '../admin/AdminOnly';
import layout from '../admin/AdminPage.module.css';
import { DASHBOARD_QUERY_KEY } from '../dashboard/dashboardApi';
import { useZonedFormat } from '../time/ZonedTime';
import { QuestionEditor } from './QuestionEditor';
import { copyToClipboard, surveyLinkUrl } from './surveyLink';
import styles from './Templates.module.css';
import {
  activateTemplate,
  createTemplate,
  deleteTemplate,
  failureMessage,
  fetchTemplates,
  isUnauthenticated,
  TEMPLATES_QUERY_KEY,
} from './templatesApi';

const TITLE = msg`Survey Templates`;

const USE_TEMPLATE_CONFIRMATION = msg`Are you sure you want to use this template? This will deactivate any currently active template.`;
const DELETE_TEMPLATE_CONFIRMATION = msg`Are you sure you want to delete this template? This will also delete all questions in this template.`;

export type ShowFlash = (text: string, tone?: FlashTone) => void;

export function TemplatesScreen() {
  const { t, i18n } = useLingui();
  return (
    <AdminOnly ability="templates" title={i18n._(TITLE)} loadingText={t`Loading templates...`}>
      <TemplateManager />
    </AdminOnly>
  );
}

function TemplateManager() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const { flash, showFlash } = useFlash();
  const [showLinks, setShowLinks] = useState(false);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const templates = useQuery({ queryKey: TEMPLATES_QUERY_KEY, queryFn: fetchTemplates });

  useLoginRedirect(isUnauthenticated(templates.error));

  // The template being edited may disappear (deleted here or in another tab).
  const list = templates.data;
  useEffect(() => {
    if (list && editingId !== null && !list.some((template) => template.id === editingId)) setEditingId(null);
  }, [list, editingId]);

  /** Template and question changes move the dashboard's copy link and its chart flags. */
  function refreshTemplates() {
    void queryClient.invalidateQueries({ queryKey: TEMPLATES_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: DASHBOARD_QUERY_KEY });
  }

  const create = useMutation({
    mutationFn: createTemplate,
    onSuccess: ({ message }) => showFlash(message),
    onError: (error) =>
      showFlash(failureMessage(error, t`Failed to create template.`, t`Error creating template.`), 'error'),
    onSettled: refreshTemplates,
  });

  const activate = useMutation({
    mutationFn: activateTemplate,
    onSuccess: ({ message }) => showFlash(message),
    onError: (error) =>
      showFlash(
        failureMessage(error, t`Failed to activate template.`, t`Error activating template.`),
        'error',
      ),
    onSettled: refreshTemplates,
  });

  const remove = useMutation({
    mutationFn: deleteTemplate,
    onSuccess: ({ message }, templateId) => {
      if (editingId === templateId) setEditingId(null);
      showFlash(message);
    },
    onError: (error) =>
      showFlash(failureMessage(error, t`Failed to delete template.`, t`Error deleting template.`), 'error'),
    onSettled: refreshTemplates,
  });

  function confirmUse(template: TemplateSummary) {
    const id = template.id;
    setConfirmation({
      title: t`Use Template #${id}?`,
      text: i18n._(USE_TEMPLATE_CONFIRMATION),
      confirmLabel: t`Use Template`,
      onConfirm: () => activate.mutate(template.id),
    });
  }

  function confirmDelete(template: TemplateSummary) {
    const id = template.id;
    setConfirmation({
      title: t`Delete Template #${id}?`,
      text: i18n._(DELETE_TEMPLATE_CONFIRMATION),
      confirmLabel: t`Delete Template`,
      confirmVariant: 'danger',
      onConfirm: () => remove.mutate(template.id),
    });
  }

  async function copyLink(template: TemplateSummary) {
    try {
      await copyToClipboard(surveyLinkUrl(template.hash_link));
      showFlash(t`Hash link copied to clipboard!`);
    } catch (error) {
      console.error('Could not copy the survey link', error);
      showFlash(t`Failed to copy link to clipboard`, 'error');
    }
  }

  const busyId = activate.isPending ? activate.variables : remove.isPending ? remove.variables : null;
  const editingTemplate = list?.find((template) => template.id === editingId) ?? null;

  return (
    <Page>
      <Flash flash={flash} floating />
      <div className={layout.heading}>
        <div className={styles.titleBlock}>
          <h1>{i18n._(TITLE)}</h1>
          <Lead>
            <Trans>
              The active template is the survey your students receive. Edit its questions, or share its link.
            </Trans>
          </Lead>
        </div>
        <div className={layout.toolbar}>
          <Button onClick={() => create.mutate()} disabled={create.isPending}>
            <Trans>Create New Template</Trans>
          </Button>
          <Button
            variant="secondary"
            aria-expanded={showLinks}
            onClick={() => setShowLinks((shown) => !shown)}
            disabled={!list?.length}
          >
            {showLinks ? <Trans>Hide Survey Links</Trans> : <Trans>Show Survey Links</Trans>}
          </Button>
          <ButtonLink variant="ghost" to="/">
            <Trans>Back to Homepage</Trans>
          </ButtonLink>
        </div>
      </div>

      <section aria-labelledby="templates-heading" aria-busy={templates.isPending}>
        <h2 id="templates-heading" className="visually-hidden">
          <Trans>Templates</Trans>
        </h2>
        {templates.isPending ? (
          <p className={styles.muted} role="status">
            <Trans>Loading templates...</Trans>
          </p>
        ) : templates.isError ? (
          <LoadError
            message={failureMessage(
              templates.error,
              t`Failed to load templates.`,
              t`Error loading templates.`,
            )}
            onRetry={() => void templates.refetch()}
          />
        ) : templates.data.length === 0 ? (
          <p className={styles.empty}>
            <Trans>No templates yet. Create a new template to start building your survey.</Trans>
          </p>
        ) : (
          <ul className={styles.templateList}>
            {templates.data.map((template) => (
              <TemplateItem
                key={template.id}
                template={template}
                showLink={showLinks}
                editing={template.id === editingId}
                busy={busyId === template.id}
                onEdit={() => setEditingId((current) => (current === template.id ? null : template.id))}
                onUse={() => confirmUse(template)}
                onDelete={() => confirmDelete(template)}
                onCopyLink={() => void copyLink(template)}
              />
            ))}
          </ul>
        )}
      </section>

      {editingTemplate && (
        <QuestionEditor
          key={editingTemplate.id}
          template={editingTemplate}
          showFlash={showFlash}
          onClose={() => setEditingId(null)}
          onQuestionsChanged={refreshTemplates}
        />
      )}

      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </Page>
  );
}

interface TemplateItemProps {
  template: TemplateSummary;
  showLink: boolean;
  editing: boolean;
  busy: boolean;
  onEdit: () => void;
  onUse: () => void;
  onDelete: () => void;
  onCopyLink: () => void;
}

function TemplateItem({
  template,
  showLink,
  editing,
  busy,
  onEdit,
  onUse,
  onDelete,
  onCopyLink,
}: TemplateItemProps) {
  const { t } = useLingui();
  const linkId = useId();
  const formatTime = useZonedFormat();
  const id = template.id;
  const name = t`Template #${id}`;
  const link = surveyLinkUrl(template.hash_link);
  const count = template.question_count;
  const questions = t`${plural(count, { one: '# question', other: '# questions' })}`;
  const created = formatTime(template.created_at);

  return (
    <li className={[styles.template, template.used && styles.templateUsed].filter(Boolean).join(' ')}>
      <div className={styles.templateMain}>
        <div className={styles.templateTitle}>
          <h3>{name}</h3>
          {template.used && (
            <span className={styles.badge}>
              <Trans>Currently Used</Trans>
            </span>
          )}
        </div>
        <p className={styles.templateMeta}>
          <Trans>
            ID {id} · {questions} · created {created}
          </Trans>
        </p>
      </div>
      <div className={styles.templateActions}>
        <Button variant="secondary" size="small" onClick={onEdit} aria-expanded={editing}>
          <Trans>
            Edit Questions<span className="visually-hidden"> of {name}</span>
          </Trans>
        </Button>
        {!template.used && (
          <Button size="small" onClick={onUse} disabled={busy}>
            <Trans>
              Use Template<span className="visually-hidden"> {name}</span>
            </Trans>
          </Button>
        )}
        <Button
          variant="secondary"
          size="small"
          onClick={onDelete}
          disabled={busy}
          className={styles.dangerQuiet}
        >
          <Trans>
            Delete<span className="visually-hidden"> {name}</span>
          </Trans>
        </Button>
      </div>
      {showLink && (
        <div className={styles.linkRow}>
          <label className={styles.linkLabel} htmlFor={linkId}>
            <Trans>
              Survey link<span className="visually-hidden"> of {name}</span>
            </Trans>
          </label>
          <input id={linkId} className={styles.linkInput} type="text" readOnly value={link} />
          <Button variant="secondary" size="small" onClick={onCopyLink}>
            <Trans>
              Copy Link<span className="visually-hidden"> of {name}</span>
            </Trans>
          </Button>
        </div>
      )}
    </li>
  );
}
