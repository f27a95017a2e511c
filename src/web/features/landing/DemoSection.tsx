import { Trans, useLingui } from '@lingui/react/macro';
import { appConfig, productName } from '../../config';
import { DemoWalkthrough } from './DemoWalkthrough';
import styles from './Landing.module.css';

/** Spec section 9: the demo video is full width and 450 px high. */
const VIDEO_HEIGHT = 450;

const isVideoFile = (url: string) => /\.(mp4|webm|ogg)(\?|#|$)/i.test(url);

function DemoVideo({ url }: { url: string }) {
  const { t } = useLingui();
  const title = t`${productName} product demo`;
  if (isVideoFile(url)) {
    return (
      // biome-ignore lint/a11y/useMediaCaption: captions come with the deployment's own video file.
      <video
        className={styles.video}
        src={url}
        height={VIDEO_HEIGHT}
        controls
        preload="metadata"
        title={title}
      />
    );
  }
  return (
    <iframe
      className={styles.video}
      src={url}
      title={title}
      width="100%"
      height={VIDEO_HEIGHT}
      loading="lazy"
      allow="fullscreen; picture-in-picture"
      allowFullScreen
      referrerPolicy="strict-origin-when-cross-origin"
    />
  );
}

export function DemoSection() {
  return (
    <section id="demo" className={styles.sectionMuted} aria-labelledby="demo-heading" tabIndex={-1}>
      <div className={styles.sectionInner}>
        <h2 id="demo-heading" className={styles.sectionHeading}>
          <Trans>See it in action</Trans>
        </h2>
        <p className={styles.sectionLead}>
          <Trans>
            A short tour of a student check-in and the dashboard your counselling team works from.
          </Trans>
        </p>
        {appConfig.demoVideoUrl ? <DemoVideo url={appConfig.demoVideoUrl} /> : <DemoWalkthrough />}
      </div>
    </section>
  );
}
